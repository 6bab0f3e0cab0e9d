package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxStdioLine bounds one JSON-RPC message on stdio; a longer line is
// answered with an error and skipped, never buffered whole.
const maxStdioLine = 16 << 20

// drainTimeout bounds how long the server keeps answering requests already
// received after the client closed its end.
const drainTimeout = 2 * time.Minute

// ServeStdio serves srv to one client over newline-delimited JSON-RPC on in
// and out (a coding agent that started `pt serve`) until the client closes
// in or ctx is done. A line that is not JSON is answered with a JSON-RPC
// parse error instead of ending the session, and when in ends, the requests
// already received are answered before the server stops, so that
// `... | pt serve` gets every answer. Nothing else may write to out.
func ServeStdio(ctx context.Context, srv *sdk.Server, in io.Reader, out io.Writer) error {
	o := &stdioOut{w: out, pending: map[string]bool{}}
	o.idle = sync.NewCond(&o.mu)
	pr, pw := io.Pipe()
	go o.pump(ctx, in, pw)
	err := srv.Run(ctx, &sdk.IOTransport{Reader: pr, Writer: o})
	pr.Close()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// stdioOut is the server's end of stdout: one message per Write, under a
// lock shared with the parse errors the pump writes, and it keeps count of
// the requests still unanswered.
type stdioOut struct {
	w       io.Writer
	mu      sync.Mutex
	idle    *sync.Cond
	pending map[string]bool
}

func (o *stdioOut) Close() error { return nil }

func (o *stdioOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, m := range messages(p) {
		if key, ok := requestKey(m.ID); ok && m.Method == nil && (m.Result != nil || m.Error != nil) {
			delete(o.pending, key)
		}
	}
	if len(o.pending) == 0 {
		o.idle.Broadcast()
	}
	return o.w.Write(p)
}

// messages decodes a message or a batch of them, as far as pending
// requests need.
func messages(p []byte) []wireMessage {
	p = bytes.TrimSpace(p)
	var ms []wireMessage
	if len(p) > 0 && p[0] == '[' {
		_ = json.Unmarshal(p, &ms)
		return ms
	}
	var m wireMessage
	if json.Unmarshal(p, &m) == nil {
		ms = append(ms, m)
	}
	return ms
}

// pump copies the client's lines to the SDK, answering malformed ones
// itself, and closes the SDK's input once in has ended and every request
// read has been answered.
func (o *stdioOut) pump(ctx context.Context, in io.Reader, pw *io.PipeWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		switch {
		case tooLong:
			o.parseError(fmt.Sprintf("message longer than %d bytes", maxStdioLine))
		case len(bytes.TrimSpace(line)) == 0:
		case !json.Valid(line):
			o.parseError("not JSON")
		default:
			// The SDK ends the session on a message it cannot decode, so
			// anything that is not one JSON-RPC 2.0 message is answered
			// here and kept from it.
			m, id, why := checkMessage(line)
			if why != "" {
				o.invalidRequest(id, why)
				break
			}
			if key, ok := requestKey(m.ID); ok && m.Method != nil {
				o.mu.Lock()
				o.pending[key] = true
				o.mu.Unlock()
			}
			if _, werr := pw.Write(append(bytes.TrimSpace(line), '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			break
		}
	}
	o.waitIdle(ctx)
	pw.Close()
}

func (o *stdioOut) waitIdle(ctx context.Context) {
	deadline := time.AfterFunc(drainTimeout, func() { o.mu.Lock(); o.pending = map[string]bool{}; o.idle.Broadcast(); o.mu.Unlock() })
	defer deadline.Stop()
	stop := context.AfterFunc(ctx, func() { o.mu.Lock(); o.pending = map[string]bool{}; o.idle.Broadcast(); o.mu.Unlock() })
	defer stop()
	o.mu.Lock()
	for len(o.pending) > 0 {
		o.idle.Wait()
	}
	o.mu.Unlock()
}

func (o *stdioOut) parseError(why string) { o.reply(nil, codeParseError, "parse error: "+why) }

func (o *stdioOut) invalidRequest(id any, why string) {
	o.reply(id, codeInvalidRequest, "invalid request: "+why)
}

// reply writes an error response the pump composed itself.
func (o *stdioOut) reply(id any, code int, message string) {
	msg := errorMessage(id, code, message)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w.Write(append(msg, '\n'))
}

// requestKey is a request id as the SDK writes it back: the client may
// spell "a/b" as "a\/b" or 1 as 1.0, and the answer must still be matched
// to the request. ok is false for no id or a null one (a notification).
func requestKey(raw json.RawMessage) (key string, ok bool) {
	if raw == nil {
		return "", false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return "s" + v, true
	case float64:
		return "n" + strconv.FormatInt(int64(v), 10), true // as the SDK's MakeID reads it
	}
	return "", false
}

// readLine reads one line, discarding the rest of one longer than
// maxStdioLine (tooLong is then true).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := r.ReadLine()
		if len(line)+len(chunk) > maxStdioLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}
