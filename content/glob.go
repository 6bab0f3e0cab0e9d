package content

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// ErrBadGlob is returned by CheckGlob for an applies_to pattern pt cannot
// match against the code repository's paths.
var ErrBadGlob = errors.New("bad applies_to glob")

// CheckGlob checks an applies_to pattern: a slash-separated glob relative to
// the code repository's root ("internal/ledger/**", "cmd/*/main.go"), where
// ** stands for any number of folders and each other segment is a
// path.Match pattern. Absolute patterns and ones that climb out with ".."
// are refused.
func CheckGlob(g string) error {
	switch {
	case g == "" || strings.TrimSpace(g) != g:
		return fmt.Errorf("%w %q: empty or padded with spaces", ErrBadGlob, g)
	case strings.HasPrefix(g, "/") || strings.Contains(g, `\`) || len(g) > 1 && g[1] == ':':
		return fmt.Errorf("%w %q: give a path relative to the code repository's root, with slashes", ErrBadGlob, g)
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return fmt.Errorf("%w %q: %q is outside the code repository or not a path segment", ErrBadGlob, g, seg)
		}
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("%w %q: %v", ErrBadGlob, g, err)
		}
	}
	return nil
}

// CleanRepoPath checks a path of the code repository the way agents give
// it (internal/ledger/replay.go) and returns it cleaned; a path that is
// absolute or climbs out of the repository is refused.
func CleanRepoPath(p string) (string, error) {
	q := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if p == "" || strings.HasPrefix(q, "/") || q == ".." || strings.HasPrefix(q, "../") || len(q) > 1 && q[1] == ':' {
		return "", fmt.Errorf("path %q is outside the code repository: give it relative to the repository's root", p)
	}
	return q, nil
}

// MatchGlob reports whether the repository path p matches the applies_to
// pattern g. A pattern that names a folder ("internal/ledger") covers
// everything below it.
func MatchGlob(g, p string) bool {
	return matchSegs(strings.Split(g, "/"), strings.Split(p, "/"), true)
}

func matchSegs(gs, ps []string, folder bool) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			for i := 0; i <= len(ps); i++ {
				if matchSegs(gs[1:], ps[i:], folder) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, _ := path.Match(gs[0], ps[0]); !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0 || folder
}

// GlobSpecificity ranks how narrowly a pattern applies: the number of its
// leading segments without wildcards, so that internal/ledger/replay.go
// outranks internal/ledger/**, which outranks **/*.go.
func GlobSpecificity(g string) int {
	n := 0
	for _, seg := range strings.Split(g, "/") {
		if strings.ContainsAny(seg, "*?[") {
			break
		}
		n++
	}
	return n
}
