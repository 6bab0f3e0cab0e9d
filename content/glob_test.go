package content

import (
	"errors"
	"testing"
)

func TestMatchGlob(t *testing.T) {
	for _, tt := range []struct {
		g, p string
		want bool
	}{
		{"internal/ledger/**", "internal/ledger/replay.go", true},
		{"internal/ledger/**", "internal/ledger/sub/x.go", true},
		{"internal/ledger/**", "internal/ledgers/x.go", false},
		{"internal/ledger", "internal/ledger/replay.go", true},
		{"internal/ledger/*.go", "internal/ledger/replay.go", true},
		{"internal/ledger/*.go", "internal/ledger/sub/x.go", false},
		{"**/*_test.go", "a/b/c_test.go", true},
		{"**/*_test.go", "c_test.go", true},
		{"**/*_test.go", "a/b/c.go", false},
		{"cmd/*/main.go", "cmd/pt/main.go", true},
		{"cmd/*/main.go", "cmd/main.go", false},
		{"docs/**/api.md", "docs/api.md", true},
		{"README.md", "README.md", true},
		{"README.md", "docs/README.md", false},
	} {
		if got := MatchGlob(tt.g, tt.p); got != tt.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tt.g, tt.p, got, tt.want)
		}
	}
	if a, b := GlobSpecificity("internal/ledger/replay.go"), GlobSpecificity("internal/ledger/**"); a <= b {
		t.Errorf("a file pattern (%d) must outrank its folder's (%d)", a, b)
	}
	if GlobSpecificity("**/*.go") != 0 {
		t.Error("**/*.go has no literal prefix")
	}
}

func TestCheckGlobAndPaths(t *testing.T) {
	for _, g := range []string{"/etc/**", "../other/**", "a/../../b", "", " a/**", "a//b", `a\b`, "a/[x"} {
		if err := CheckGlob(g); !errors.Is(err, ErrBadGlob) {
			t.Errorf("CheckGlob(%q) = %v, want ErrBadGlob", g, err)
		}
	}
	for _, g := range []string{"internal/ledger/**", "**/*.go", "cmd/pt"} {
		if err := CheckGlob(g); err != nil {
			t.Errorf("CheckGlob(%q) = %v", g, err)
		}
	}
	for _, p := range []string{"/etc/passwd", "../x.go", "a/../../x", "", "C:/x"} {
		if _, err := CleanRepoPath(p); err == nil {
			t.Errorf("CleanRepoPath(%q): want an error", p)
		}
	}
	if p, err := CleanRepoPath("./internal//ledger/replay.go"); err != nil || p != "internal/ledger/replay.go" {
		t.Errorf("CleanRepoPath = %q, %v", p, err)
	}
}
