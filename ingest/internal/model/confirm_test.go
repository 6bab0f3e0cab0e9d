package model

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
)

func TestModelConfirm(t *testing.T) {
	reply := func(body string) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	f := lint.Finding{Check: lint.CheckContradiction, Message: "14:00 against 16:00",
		Evidence: []lint.Evidence{{Path: "pages/a.md", Line: 3, Text: "Deploys freeze at 14:00 UTC."}}}
	for _, c := range []struct {
		name, body string
		keep       bool
		reason     string
		err        bool
	}{
		{"confirm", `{"choices":[{"message":{"content":"CONFIRM: both pages name the same freeze."}}]}`, true, "both pages name the same freeze.", false},
		{"dismiss", `{"choices":[{"message":{"content":"<think>hm</think>\nDISMISS: different freezes"}}]}`, false, "different freezes", false},
		{"no verdict", `{"choices":[{"message":{"content":"I think so."}}]}`, false, "", true},
		{"not json", `<html>502</html>`, false, "", true},
		{"no choices", `{"choices":[]}`, false, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Client{URL: reply(c.body).URL}
			keep, reason, err := m.Confirm(context.Background(), f)
			if (err != nil) != c.err || (err != nil && !errors.Is(err, ErrModel)) {
				t.Fatalf("err = %v", err)
			}
			if keep != c.keep || reason != c.reason {
				t.Errorf("got %v %q", keep, reason)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(release)
		m := &Client{URL: srv.URL, Timeout: 50 * time.Millisecond}
		if _, _, err := m.Confirm(context.Background(), f); !errors.Is(err, ErrModel) {
			t.Fatalf("err = %v", err)
		}
	})
}
