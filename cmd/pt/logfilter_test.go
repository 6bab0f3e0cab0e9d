package main

import (
	"bytes"
	"log"
	"testing"
)

func TestQuietBluge(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(quietBluge{&buf}, "", log.LstdFlags)
	l.Printf("error loading snapshot epoch: %d: %v", 2, "resource temporarily unavailable")
	l.Printf("http: panic serving 127.0.0.1:5000: boom")
	if got := buf.String(); bytes.Contains([]byte(got), []byte("snapshot epoch")) || !bytes.Contains([]byte(got), []byte("http: panic serving")) {
		t.Errorf("logged %q, want only the http line", got)
	}
}
