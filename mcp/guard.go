package mcp

import (
	"net"
	"net/http"
)

// GuardHost wraps next in the Host and Origin checks that Handler puts in
// front of MCP, for a server listening on addr: another site served beside
// it (pt serve --web) refuses DNS rebinding and cross-site requests the
// same way. allowed are further host names, as in HTTPOptions.
func GuardHost(addr string, allowed []string, next http.Handler) (http.Handler, error) {
	hc, err := newHostCheck(addr, allowed)
	if err != nil {
		return nil, err
	}
	return hc.wrap(next), nil
}

// IsLoopback reports whether addr (host:port) is a loopback address, on
// which a local server may go without tokens.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && isLoopbackHost(host)
}
