package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeGoVersion keeps the README's Go version the one go.mod
// requires.
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Go " + string(m[1]); !strings.Contains(string(readme), want+" ") {
		t.Errorf("README.md does not say %q, the version go.mod requires", want)
	}
}
