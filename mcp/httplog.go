package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// LogRequests wraps h so that every HTTP request is logged once it is
// answered: method, path, the JSON-RPC method and, for tools/call, the
// tool, then the status and the duration. Headers and bodies are never
// logged, so neither is a bearer token or what an agent wrote.
func LogRequests(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rpc, tool := peekCall(r)
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		attrs := []any{"method", r.Method, "path", r.URL.Path}
		if rpc != "" {
			attrs = append(attrs, "rpc", rpc)
		}
		if tool != "" {
			attrs = append(attrs, "tool", tool)
		}
		status := sw.code
		if status == 0 {
			status = http.StatusOK
		}
		attrs = append(attrs, "status", status, "duration", time.Since(start).Round(time.Microsecond))
		log.Info("request", attrs...)
	})
}

// peekLimit bounds what LogRequests reads ahead of the handler to name the
// call; the handler still reads the whole body.
const peekLimit = 64 << 10

// peekCall reads the JSON-RPC method and tool name of a POST's body (the
// first message of a batch) and puts the bytes back for the handler.
func peekCall(r *http.Request) (rpc, tool string) {
	if r.Method != http.MethodPost || r.Body == nil {
		return "", ""
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, peekLimit))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil {
		return "", ""
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	data := bytes.TrimSpace(head)
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) != nil || len(batch) == 0 {
			return "", ""
		}
		data = batch[0]
	}
	if json.Unmarshal(data, &msg) != nil {
		return "", ""
	}
	if msg.Method == "tools/call" {
		tool = msg.Params.Name
	}
	return msg.Method, tool
}
