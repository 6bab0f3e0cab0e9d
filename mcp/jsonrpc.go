package mcp

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
)

// JSON-RPC error codes pt answers with itself, before the SDK sees a
// message it would mishandle.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// wireMessage is a JSON-RPC message as far as the pump checks it and the
// pending requests are counted.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// checkMessage says why a line of valid JSON is not one JSON-RPC 2.0
// request, notification or response ("" when it is), and returns its id
// when it has a usable one, for the error's reply.
func checkMessage(line []byte) (m wireMessage, id any, why string) {
	line = bytes.TrimSpace(line)
	switch {
	case line[0] == '[':
		return m, nil, "batches are not supported: send one message at a time"
	case line[0] != '{':
		return m, nil, "a message is a JSON object"
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return m, nil, "malformed message: " + err.Error()
	}
	if m.ID != nil {
		if err := json.Unmarshal(m.ID, &id); err != nil {
			return m, nil, "malformed id"
		}
		switch id.(type) {
		case string, nil:
		case float64:
			// The SDK reads a number through a float64 into an int64,
			// so 1.5 would be answered as 1 and 2^53+1 as 2^53: another
			// request's id. The check reads the number as written.
			if !exactID(m.ID) {
				return m, nil, "a numeric id must be an integer of at most 2^53"
			}
		default:
			return m, nil, "id must be a string or a number"
		}
	}
	switch {
	case m.JSONRPC != "2.0":
		return m, id, `"jsonrpc" must be "2.0"`
	case m.Method == nil && m.Result == nil && m.Error == nil:
		return m, id, "neither a request (method) nor a response (result or error)"
	}
	return m, id, ""
}

// exactID reports whether a JSON number is an integer that a float64 holds
// exactly (at most 2^53 in magnitude), as written, before any rounding.
func exactID(raw json.RawMessage) bool {
	f, _, err := big.ParseFloat(strings.TrimSpace(string(raw)), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return false
	}
	return new(big.Float).Abs(f).Cmp(big.NewFloat(1<<53)) <= 0
}

// errorMessage is a JSON-RPC error response.
func errorMessage(id any, code int, message string) []byte {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	return msg
}
