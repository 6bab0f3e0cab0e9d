package model

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ptwiki/pt/lint"
)

const curatePrompt = `You review one finding of a knowledge base's curation pass: pages that may contradict each other, a claim that may be stale, a term that may need a page of its own, or pages that may say the same thing.
Judge only from the evidence given. Answer on one line, exactly:
CONFIRM: <one sentence why it is a real problem>
or
DISMISS: <one sentence why it is not>`

var verdictLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t*_]*(confirm|dismiss)[ \t*_]*:[ \t*_]*(.+)$`)
})

// Confirm asks the model whether a curation finding is real, so that m
// serves as lint's Confirmer. A reply without a CONFIRM or DISMISS line,
// and any failure of the endpoint, is an error wrapping ErrModel: the
// caller keeps the finding as the rules found it.
func (m *Client) Confirm(ctx context.Context, f lint.Finding) (bool, string, error) {
	var user strings.Builder
	fmt.Fprintf(&user, "Check: %s\nFinding: %s\n", f.Check, f.Message)
	for i, e := range f.Evidence {
		fmt.Fprintf(&user, "\n[%d] %s", i+1, e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&user, ":%d", e.Line)
		}
		if e.Text != "" {
			fmt.Fprintf(&user, "\n%s", e.Text)
		}
	}
	text, err := m.chat(ctx, curatePrompt, user.String())
	if err != nil {
		return false, "", err
	}
	text = thinkBlock().ReplaceAllString(text, "")
	ms := verdictLine().FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return false, "", fmt.Errorf("%w: reply has no CONFIRM or DISMISS line", ErrModel)
	}
	last := ms[len(ms)-1]
	reason := strings.TrimSpace(last[2])
	if strings.IndexFunc(reason, func(r rune) bool { return r < 0x20 && r != '\t' }) >= 0 {
		return false, "", fmt.Errorf("%w: reason holds control characters", ErrModel)
	}
	return strings.EqualFold(last[1], "confirm"), reason, nil
}
