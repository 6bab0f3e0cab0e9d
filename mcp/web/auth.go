package web

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/mcp"
)

// signedIn is the token a request carried: its name and the reader it
// stands for. It is kept in the request's context.
type signedIn struct {
	name   string
	reader mcp.Reader
}

type signedInKey struct{}

// withToken reads the token a request carries: "Authorization: Bearer
// TOKEN" from a script, or HTTP Basic authentication with the token as the
// password, which a browser asks a person for. Any scope reads; the site
// writes nothing. A request with a token reads at the token's clearance.
// One without is refused unless anonymous is set (a loopback address),
// and then reads as an unauthenticated local client; /login asks the
// browser for a token.
func withToken(ts *mcp.Tokens, anonymous bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret := ""
		if _, pw, ok := r.BasicAuth(); ok {
			secret = pw
		} else if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			secret = strings.TrimSpace(v)
		}
		if secret == "" {
			if !anonymous || r.URL.Path == loginPath {
				challenge(w, "a token is needed: enter one from pt token create as the password")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		tok, err := ts.Verify(secret)
		if err != nil {
			if errors.Is(err, mcp.ErrInvalidToken) {
				challenge(w, "unknown or revoked token (see pt token list)")
				return
			}
			http.Error(w, "cannot check the token (see the server's log)", http.StatusInternalServerError)
			return
		}
		ctx := context.WithValue(r.Context(), signedInKey{}, signedIn{tok.Name, mcp.TokenReader(tok)})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// loginPath asks a browser for a token: once it has one, it sends it with
// every request to the site.
const loginPath = "/login"

func challenge(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Basic realm="pt", charset="UTF-8"`)
	http.Error(w, "unauthorized: "+msg, http.StatusUnauthorized)
}

// who describes the reader for the layout: the token's name and
// clearance, or "" when the request carried none.
func who(r *http.Request) (name, clearance string) {
	si, ok := r.Context().Value(signedInKey{}).(signedIn)
	if !ok {
		return "", ""
	}
	c := si.reader.Clearance
	if c == "" {
		c = content.Unclassified
	}
	return si.name, c
}
