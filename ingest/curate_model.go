package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ptwiki/pt/lint"
)

const curatePrompt = `You review one finding of a knowledge base's curation pass: pages that may contradict each other, a claim that may be stale, a term that may need a page of its own, or pages that may say the same thing.
Judge only from the evidence given. Answer on one line, exactly:
CONFIRM: <one sentence why it is a real problem>
or
DISMISS: <one sentence why it is not>`

var verdictLine = regexp.MustCompile(`(?im)^[ \t*_]*(confirm|dismiss)[ \t*_]*:[ \t*_]*(.+)$`)

// Confirm asks the model whether a curation finding is real, so that m
// serves as lint's Confirmer. A reply without a CONFIRM or DISMISS line,
// and any failure of the endpoint, is an error wrapping ErrModel: the
// caller keeps the finding as the rules found it.
func (m *Model) Confirm(ctx context.Context, f lint.Finding) (bool, string, error) {
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
	text = thinkBlock.ReplaceAllString(text, "")
	ms := verdictLine.FindAllStringSubmatch(text, -1)
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

// chat sends one system and user message and returns the reply's text.
func (m *Model) chat(ctx context.Context, system, user string) (string, error) {
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = DefaultModelTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := map[string]any{
		"messages":    []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}},
		"temperature": 0,
	}
	if m.Name != "" {
		req["model"] = m.Name
	}
	body, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrModel, err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, m.Endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrModel, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if m.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+m.Key)
	}
	client := m.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(hr)
	if err == nil {
		defer resp.Body.Close()
		var raw []byte
		raw, err = io.ReadAll(io.LimitReader(resp.Body, maxModelResponse))
		if err == nil {
			return chatText(resp, raw)
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "", fmt.Errorf("%w: no answer within %s", ErrModel, timeout)
	}
	return "", fmt.Errorf("%w: %w", ErrModel, err)
}

// chatText reads a chat completion's first choice.
func chatText(resp *http.Response, raw []byte) (string, error) {
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("%w: %s", ErrModel, resp.Status)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("%w: reply is not a chat completion: %v", ErrModel, err)
	}
	if len(out.Choices) == 0 || !utf8.ValidString(out.Choices[0].Message.Content) {
		return "", fmt.Errorf("%w: reply has no text", ErrModel)
	}
	return out.Choices[0].Message.Content, nil
}
