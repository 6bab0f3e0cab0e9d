package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/ptwiki/pt/mcp"
)

// requireToken lets a request through when it carries one of the space's
// tokens: "Authorization: Bearer TOKEN" from a script, or HTTP Basic
// authentication with the token as the password, which a browser asks a
// person for. Any scope reads; the site writes nothing.
func requireToken(ts *mcp.Tokens, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret := ""
		if _, pw, ok := r.BasicAuth(); ok {
			secret = pw
		} else if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			secret = strings.TrimSpace(v)
		}
		if secret == "" {
			challenge(w, "a token is needed: enter one from pt token create as the password")
			return
		}
		if _, err := ts.Verify(secret); err != nil {
			if errors.Is(err, mcp.ErrInvalidToken) {
				challenge(w, "unknown or revoked token (see pt token list)")
				return
			}
			http.Error(w, "cannot check the token (see the server's log)", http.StatusInternalServerError)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func challenge(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Basic realm="pt", charset="UTF-8"`)
	http.Error(w, "unauthorized: "+msg, http.StatusUnauthorized)
}
