package lint

import (
	"fmt"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
)

// drift reports the provenance pins of p that no longer hold: the file a
// derived_from or citations entry names is gone, or its blob at this
// revision is not the one pinned. It returns whether a derived_from pin
// drifted, which may make the page stale.
func (snap *snapshot) drift(p *page, add func(check, path string, line int, target, msg string)) (derivedDrift bool) {
	for g, refs := range [2][]content.Ref{p.Meta.DerivedFrom, p.Meta.Citations} {
		key := pinKey(g)
		for i, r := range refs {
			if r.Path == "" || r.Revision == "" {
				continue
			}
			rp := path.Clean(r.Path)
			line := p.pinLine(g, i)
			blob, ok := snap.files[rp]
			switch {
			case !ok:
				add(CheckDrift, p.path, line, rp, fmt.Sprintf("%s %s: the file is gone (pinned at %s)", key, rp, shortRev(r.Revision)))
			case !sameRevision(blob, r.Revision):
				add(CheckDrift, p.path, line, rp, fmt.Sprintf("%s %s: pinned at %s, the file is now %s", key, rp, shortRev(r.Revision), shortRev(blob)))
			default:
				continue
			}
			if g == 0 {
				derivedDrift = true
			}
		}
	}
	return derivedDrift
}

// pinLine is the line of the i-th entry of provenance.<key>: its path
// (block or flow style), else where the entry starts (a path brought in by a
// YAML merge key), else the frontmatter's first line.
func pinLine(pg *content.Page, key string, i int) int {
	if l := pg.FrontmatterLine("provenance", key, i, "path"); l > 0 {
		return l
	}
	if l := pg.FrontmatterLine("provenance", key, i); l > 0 {
		return l
	}
	return 1
}

// sameRevision accepts a pin abbreviated as git abbreviates (7+ hex digits).
func sameRevision(blob, pin string) bool {
	pin = strings.ToLower(strings.TrimSpace(pin))
	return blob == pin || (len(pin) >= 7 && strings.HasPrefix(blob, pin))
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

// frontmatterLine returns the first line of the frontmatter that match
// accepts (1-based, in the whole file), or 1, where the frontmatter starts.
func frontmatterLine(raw []byte, match func(string) bool) int {
	lines := strings.Split(string(raw), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return 1
	}
	for i := 1; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], " \t\r")
		if t == "---" || t == "..." {
			break
		}
		if match(lines[i]) {
			return i + 1
		}
	}
	return 1
}
