package mcp

import (
	"fmt"
	"net/http"
)

// WithInfo wraps h so that GET / says what the server is: a pt knowledge
// base served over MCP, where its endpoint is and how to connect an agent.
// It names neither the space nor anything in it, since it answers before
// any token is checked. Every other request goes to h.
func WithInfo(h http.Handler, version, authMode string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		auth := "every request needs a bearer token from pt token create"
		if authMode == AuthNone {
			auth = "no token is needed (loopback only)"
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "pt %s: a knowledge base served over MCP (streamable HTTP).\n"+
			"The MCP endpoint is %s; %s.\n"+
			"Connect an agent with: pt mcp install --client claude|cursor|codex|gemini\n", version, DefaultPath, auth)
	})
}
