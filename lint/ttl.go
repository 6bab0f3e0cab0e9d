package lint

import (
	"fmt"
	"time"

	"github.com/ptwiki/pt/content"
)

// expired reports a time_bound page past its expires date whose status
// does not say so yet: the reaper has not run, or a person brought it back.
func expired(p *page, now time.Time, add func(check, path string, line int, target, msg string)) {
	m := p.Meta
	if m.Durability != "time_bound" || m.Status == content.StatusExpired {
		return
	}
	t, ok := m.expiresAt()
	if !ok || !now.After(t) {
		return
	}
	line := max(p.ExpiresLine, 1)
	add(CheckExpired, p.path, line, "", fmt.Sprintf("time_bound page expired %s and is not marked expired", m.Expires))
}
