package content

import (
	"errors"
	"slices"
	"testing"
)

func TestCleanPath(t *testing.T) {
	good := map[string]string{
		"pages/a.md":       "pages/a.md",
		"sources/x/y/z.md": "sources/x/y/z.md",
		"README.MD":        "README.MD",
	}
	for in, want := range good {
		got, err := CleanPath(in)
		if err != nil || got != want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "/etc/passwd.md", "../x.md", "pages/../../x.md", "a/./b.md", "a//b.md",
		"pages/x.txt", "pages/x", "a\x00b.md", `a\b.md`, ".git/config.md", "pages/.hidden.md", "C:/x.md", ".md", "a\nb.md"} {
		if _, err := CleanPath(in); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("CleanPath(%q) accepted (err %v)", in, err)
		}
	}
}

func TestCaseCollision(t *testing.T) {
	all := slices.Values([]string{"pages/Storage.md", "pages/other.md"})
	if hit, ok := CaseCollision("pages/storage.md", all); !ok || hit != "pages/Storage.md" {
		t.Fatalf("got %q %v", hit, ok)
	}
	if _, ok := CaseCollision("pages/Storage.md", all); ok {
		t.Fatal("a path collides with itself")
	}
}

func TestTitleFromPathAndSlug(t *testing.T) {
	for in, want := range map[string]string{
		"GoForCPPProgrammers.md":          "Go For CPP Programmers",
		"docs/release-notes.md":           "Release notes",
		"sig-scalability/README.md":       "Sig scalability",
		"contributors/guide/pull_reqs.md": "Pull reqs",
	} {
		if got := TitleFromPath(in); got != want {
			t.Errorf("TitleFromPath(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Slug("Why the Index is keyed by Commit!"); got != "why-the-index-is-keyed-by-commit" {
		t.Errorf("Slug = %q", got)
	}
	if got := Slug("???"); got != "page" {
		t.Errorf("Slug = %q", got)
	}
}

func FuzzCleanPath(f *testing.F) {
	f.Add("pages/a.md")
	f.Add("../x.md")
	f.Fuzz(func(t *testing.T, p string) {
		c, err := CleanPath(p)
		if err != nil {
			return
		}
		if c2, err := CleanPath(c); err != nil || c2 != c {
			t.Fatalf("clean path not stable: %q -> %q (%v)", c, c2, err)
		}
	})
}

func TestTopicSlug(t *testing.T) {
	for topic, want := range map[string]string{"C++": "c-plus-plus", "C#": "c-sharp", "C": "c", "page": "page", "Release notes": "release-notes"} {
		if got := TopicSlug(topic); got != want {
			t.Errorf("TopicSlug(%q) = %q, want %q", topic, got, want)
		}
	}
	for topic, want := range map[string]bool{"page": true, "C#": true, "+": true, "!!!": false, " ": false, "": false} {
		if got := IsTopic(topic); got != want {
			t.Errorf("IsTopic(%q) = %v, want %v", topic, got, want)
		}
	}
}
