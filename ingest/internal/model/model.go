package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ptwiki/pt/retrieve"
)

// Client is an optional OpenAI-compatible chat endpoint that composes a
// consult's answer from the retrieved excerpts and gives its own durability
// verdict. pt never depends on it: a model that is down, slow or answers
// garbage is an error from Compose, and FileBack falls back to the
// extractive answer, so a consult is never blocked by it.
type Client struct {
	// URL is the endpoint: a base URL ("http://localhost:8080", ".../v1"),
	// to which /v1/chat/completions is added, or the full
	// ".../chat/completions" URL.
	URL string
	// Name is the model to ask for; empty sends none (servers that host one
	// model ignore it).
	Name string
	// Key is sent as a bearer token when set.
	Key string
	// Timeout bounds one answer; zero means DefaultTimeout.
	Timeout time.Duration
	// Client is the HTTP client; nil means http.DefaultClient.
	Client *http.Client
}

// DefaultTimeout bounds a model's answer: long enough for a local model
// to write a paragraph, short enough that a stuck one does not hold a
// consult.
const DefaultTimeout = 20 * time.Second

// maxModelResponse bounds what is read of a model's reply.
const maxModelResponse = 1 << 20

// ErrModel is wrapped by every failure of the model: unreachable, slow,
// a non-2xx status, or a reply that is not a usable answer.
var ErrModel = errors.New("model")

// FromEnv returns the model named by the variable PT_LLM_URL (with
// PT_LLM_MODEL, PT_LLM_KEY and PT_LLM_TIMEOUT, a duration such as 20s), as
// getenv reads them, or nil when PT_LLM_URL is unset, which keeps
// everything deterministic. cmd/pt passes os.Getenv; ingest itself reads
// no environment.
func FromEnv(getenv func(string) string) *Client {
	u := strings.TrimSpace(getenv("PT_LLM_URL"))
	if u == "" {
		return nil
	}
	m := &Client{URL: u, Name: getenv("PT_LLM_MODEL"), Key: getenv("PT_LLM_KEY")}
	if t := getenv("PT_LLM_TIMEOUT"); t != "" {
		if d, err := time.ParseDuration(t); err == nil && d > 0 {
			m.Timeout = d
		} else if n, err := strconv.Atoi(t); err == nil && n > 0 {
			m.Timeout = time.Duration(n) * time.Second
		}
	}
	return m
}

// Endpoint is the chat-completions URL requests go to.
func (m *Client) Endpoint() string {
	u := strings.TrimRight(m.URL, "/")
	switch {
	case strings.HasSuffix(u, "/chat/completions"):
		return u
	case strings.HasSuffix(u, "/v1"):
		return u + "/chat/completions"
	}
	return u + "/v1/chat/completions"
}

// Answer is a model's answer: its text, its durability verdict as the
// model wrote it, lower case with underscores ("" when it gave none; the
// caller parses it), and the excerpts it cited.
type Answer struct {
	Answer     string
	Durability string
	Cited      []retrieve.Hit
}

// MaxAnswerBytes bounds a model's answer, as a consult's answer is bounded.
const MaxAnswerBytes = 64 << 10

const modelSystemPrompt = `You answer questions about a team's knowledge base using only the numbered excerpts given.
Rules:
- Use only facts stated in the excerpts. If they do not answer the question, say what they do say.
- Cite the excerpts you used as [1], [2], ...
- At most 200 words, plain Markdown, no preamble.
- On the last line write exactly one of:
DURABILITY: durable      (decisions, conventions, how things work, lessons)
DURABILITY: time_bound   (versions, dates, deadlines, temporary workarounds)
DURABILITY: ephemeral    (status, plans, priorities, who works on what now)`

// Compose asks the model for an answer to question from hits. Any failure
// (transport, timeout, status, malformed or empty reply) is an error
// wrapping ErrModel.
func (m *Client) Compose(ctx context.Context, question string, hits []retrieve.Hit) (*Answer, error) {
	var user strings.Builder
	fmt.Fprintf(&user, "Question: %s\n\nExcerpts:\n", question)
	for i, h := range hits {
		fmt.Fprintf(&user, "\n[%d] %s (%s)\n%s\n", i+1, strings.Join(strings.Fields(h.Title), " "), h.Path, strings.TrimSpace(h.Excerpt))
	}
	text, err := m.chat(ctx, modelSystemPrompt, user.String())
	if err != nil {
		return nil, err
	}
	return parseModelAnswer(text, hits)
}

var (
	thinkBlock     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<think>.*?</think>`) })
	durabilityLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^[ \t*_]*durability[ \t*_]*:[ \t*_]*([a-z_ -]+?)[ \t*_.]*$`)
	})
	citeMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(\d{1,3})\]`) })
)

// parseModelAnswer turns a model's text into an answer: reasoning blocks
// stripped, the durability line read and removed, the cited excerpts
// picked out. Text that is empty, not UTF-8, too large or without words
// is garbage.
func parseModelAnswer(text string, hits []retrieve.Hit) (*Answer, error) {
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return nil, fmt.Errorf("%w: reply is not text", ErrModel)
	}
	text = thinkBlock().ReplaceAllString(text, "")
	if strings.Contains(text, "<think>") {
		return nil, fmt.Errorf("%w: reply is an unfinished reasoning block", ErrModel)
	}
	ma := &Answer{}
	if locs := durabilityLine().FindAllStringSubmatchIndex(text, -1); len(locs) > 0 {
		last := locs[len(locs)-1]
		ma.Durability = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(text[last[2]:last[3]])), " ", "_")
		text = text[:last[0]] + text[last[1]:]
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	switch {
	case text == "":
		return nil, fmt.Errorf("%w: empty answer", ErrModel)
	case len(text) > MaxAnswerBytes:
		return nil, fmt.Errorf("%w: answer of %d bytes, limit %d", ErrModel, len(text), MaxAnswerBytes)
	case words(text) < 3:
		return nil, fmt.Errorf("%w: answer has no sentence in it", ErrModel)
	}
	if bad := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }); bad >= 0 {
		return nil, fmt.Errorf("%w: answer holds control characters", ErrModel)
	}
	seen := map[int]bool{}
	for _, m := range citeMark().FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= len(hits) && !seen[n] {
			seen[n] = true
			ma.Cited = append(ma.Cited, hits[n-1])
		}
	}
	if len(ma.Cited) == 0 {
		ma.Cited = hits // it used what it was given, even if it did not say which
	}
	ma.Answer = text
	return ma, nil
}

// words counts the words of at least two letters in s.
func words(s string) int {
	n := 0
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) >= 2 {
			n++
		}
	}
	return n
}
