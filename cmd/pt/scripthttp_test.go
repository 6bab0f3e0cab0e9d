package main

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// freePort sets an environment variable to a loopback port that is free
// now, for a server a script starts in the background:
//
//	freeport VAR
func freePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// httpCall sends one request, retrying until the server listens (up to
// ten seconds), and writes "status CODE" and the body to stdout:
//
//	http METHOD URL [BODY [HEADER:VALUE...]]
func httpCall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: http METHOD URL [BODY [HEADER:VALUE...]]")
	}
	body := ""
	if len(args) > 2 {
		body = args[2]
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, err := http.NewRequest(args[0], args[1], strings.NewReader(body))
		ts.Check(err)
		for _, h := range args[min(3, len(args)):] {
			k, v, _ := strings.Cut(h, ":")
			req.Header.Set(k, strings.TrimSpace(v))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			if time.Now().After(deadline) {
				ts.Fatalf("http: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		ts.Check(err)
		ts.Stdout().Write([]byte("status " + strconv.Itoa(resp.StatusCode) + "\n" + string(data)))
		return
	}
}
