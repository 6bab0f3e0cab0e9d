package mcp

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	s := newSpace(t)
	ts := OpenTokens(s)
	secret, tok, err := ts.Create("ci-bot", ScopeRead, when)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, "pt_") || len(secret) < 40 {
		t.Errorf("secret %q", secret)
	}
	data, err := os.ReadFile(ts.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), hashSecret(secret)) {
		t.Errorf("the store must hold the hash, never the secret:\n%s", data)
	}
	if fi, _ := os.Stat(ts.Path()); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if !strings.HasPrefix(ts.Path(), s.GitDir()) {
		t.Errorf("store %s is outside .git: it could be committed", ts.Path())
	}
	if got, err := OpenTokens(s).Verify(secret); err != nil || got != tok {
		t.Errorf("verify: %+v %v", got, err)
	}
	if _, err := ts.Verify(secret + "x"); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("wrong secret: %v", err)
	}
	for _, tt := range []struct {
		name, scope string
		want        error
	}{
		{"ci-bot", ScopeWrite, ErrTokenExists},
		{"", ScopeRead, ErrBadTokenName},
		{"a b", ScopeRead, ErrBadTokenName},
		{"../x", ScopeRead, ErrBadTokenName},
		{"ok", "admin", ErrBadTokenScope},
	} {
		if _, _, err := ts.Create(tt.name, tt.scope, when); !errors.Is(err, tt.want) {
			t.Errorf("Create(%q, %q) = %v, want %v", tt.name, tt.scope, err, tt.want)
		}
	}
	if err := ts.Revoke("ci-bot"); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Verify(secret); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("revoked token still verifies: %v", err)
	}
	if err := ts.Revoke("ci-bot"); !errors.Is(err, ErrNoToken) {
		t.Errorf("revoke twice: %v", err)
	}
	if l, err := ts.List(); err != nil || len(l) != 0 {
		t.Errorf("list: %v %v", l, err)
	}
}
