package gitstore

import "testing"

func TestScrubURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://ghp_abc123@github.com/o/kb.git", "https://***@github.com/o/kb.git"},
		{"fetch https://dana:s3cret@gitlab.example/o/kb.git: 401", "fetch https://***@gitlab.example/o/kb.git: 401"},
		{"ssh://git:pw@host/kb.git", "ssh://git:***@host/kb.git"},
		{"ssh://git@host/kb.git", "ssh://git@host/kb.git"},
		{"git://127.0.0.1:9418/kb.git", "git://127.0.0.1:9418/kb.git"},
		{"/srv/git/kb.git", "/srv/git/kb.git"},
	} {
		if got := ScrubURL(tc.in); got != tc.want {
			t.Errorf("ScrubURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScrubRemovesToken(t *testing.T) {
	r := Remote{URL: "https://example.com/kb.git", Credentials: Credentials{Token: "tok-abcdef"}}
	if got := r.scrub("server said: bad credentials tok-abcdef"); got != "server said: bad credentials ***" {
		t.Errorf("scrub kept the token: %q", got)
	}
}
