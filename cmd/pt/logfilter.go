package main

import (
	"bytes"
	"io"
)

// quietBluge passes what is logged on the standard logger to w, except the
// line bluge logs when it skips a snapshot it cannot open ("error loading
// snapshot epoch"): a query beside a server meets one the server is still
// writing, and bluge then opens the one before. Everything else (net/http's
// errors in pt serve, say) still reaches the user.
type quietBluge struct{ w io.Writer }

func (q quietBluge) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("error loading snapshot epoch")) {
		return len(p), nil
	}
	return q.w.Write(p)
}
