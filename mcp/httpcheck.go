package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// strictJSONRPC answers a POST body that is not one JSON-RPC 2.0 message
// with 400 and a -32600 (or -32700) error response, as stdio does, before
// the SDK sees it. go-sdk v1.8.0 over HTTP reads a numeric id through a
// float64 into an int64 (1.5 is answered as 1, an id past 2^63 as
// -9223372036854775808: another request's id), accepts a batch unless
// the request repeats the protocol version in a header (the version the
// session negotiated has no batches), and answers 202 to a message that
// is neither a request nor a response.
func strictJSONRPC(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, fmt.Sprintf("request body too large: limit %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "failed to read the request body", http.StatusBadRequest)
			return
		}
		switch {
		case len(bytes.TrimSpace(body)) == 0:
			// the SDK says what a POST needs
		case !json.Valid(body):
			rejectMessage(w, nil, codeParseError, "parse error: not JSON")
			return
		default:
			if _, id, why := checkMessage(body); why != "" {
				rejectMessage(w, id, codeInvalidRequest, "invalid request: "+why)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// rejectMessage answers 400 with a JSON-RPC error response, which the
// streamable HTTP transport allows for input the server cannot accept.
func rejectMessage(w http.ResponseWriter, id any, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(append(errorMessage(id, code, message), '\n'))
}
