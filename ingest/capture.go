package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/ingest/internal/durability"
	"github.com/ptwiki/pt/wiki"
)

// MaxTranscriptBytes bounds what Capture reads: a day-long agent session is
// a few megabytes of JSONL.
const MaxTranscriptBytes = 32 << 20

// errBadTranscript is wrapped by every refusal of a transcript.
var errBadTranscript = errors.New("bad transcript")

// CaptureOptions says who captures and what to call the proposal.
type CaptureOptions struct {
	Name   string      // the transcript's name, for the title and errors ("-" for stdin)
	Title  string      // the proposed source's title; "" is "Lessons from <name>"
	Author wiki.Author // who captures: the person running pt capture
	When   time.Time   // zero means now
}

// Lesson is one piece of knowledge found in a transcript, and what became
// of it.
type Lesson struct {
	Text       string `json:"text"`
	Line       int    `json:"line"`   // the transcript's line it came from
	Marker     string `json:"marker"` // remember (a [[REMEMBER: …]] marker) or lesson (a "Lesson:" line)
	Durability string `json:"durability"`
	Kept       bool   `json:"kept"`
	Reason     string `json:"reason,omitempty"` // why it was left out
}

// CaptureResult is what Capture did: the JSON of `pt capture --json`. Result
// is the proposal's batch, nil when no lesson was kept.
type CaptureResult struct {
	*wiki.Result
	Format  string   `json:"format"` // jsonl or text
	Lessons []Lesson `json:"lessons"`
}

var (
	rememberRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)\[\[REMEMBER:\s*(.+?)\s*\]\]`) })
	lessonRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^[ \t]*(?:[-*>][ \t]*)?(?:\*\*|__)?(?:lesson(?: learned)?|learned|til)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*(\S.*)$`)
	})
)

// Capture reads an agent's output or a session transcript (Claude Code or
// Codex JSONL, else plain text), picks up the [[REMEMBER: …]] markers and
// explicit "Lesson:" lines, and proposes the durable ones as one source for
// a person to review (pt proposals, pt approve). Lessons that are live
// state are left out and listed; a transcript that is not what it claims,
// too large, or whose lessons carry a secret is refused, and nothing is
// written.
func Capture(ctx context.Context, s *wiki.Space, data []byte, opts CaptureOptions) (*CaptureResult, error) {
	name := opts.Name
	if name == "" {
		name = "-"
	}
	if len(data) > MaxTranscriptBytes {
		return nil, fmt.Errorf("capture %s: %w: larger than %d MB", name, errBadTranscript, MaxTranscriptBytes>>20)
	}
	texts, format, err := transcriptText(data)
	if err != nil {
		return nil, fmt.Errorf("capture %s: %w", name, err)
	}
	res := &CaptureResult{Format: format, Lessons: []Lesson{}}
	seen := map[string]bool{}
	for _, t := range texts {
		for _, l := range findLessons(t.text) {
			key := strings.ToLower(l.Text)
			if seen[key] {
				continue
			}
			seen[key] = true
			l.Line = t.line
			if f := secret.Scan([]byte(l.Text)); len(f) > 0 {
				return nil, fmt.Errorf("capture %s: refusing secret (%s) in the lesson at line %d; nothing was proposed", name, f[0].Kind, l.Line)
			}
			d, why := durability.Classify(l.Text, l.Text)
			l.Durability, l.Kept = string(d), d != durability.Ephemeral
			if !l.Kept {
				l.Reason = "live state, never filed: " + why
			}
			res.Lessons = append(res.Lessons, l)
		}
	}
	body := lessonsBody(res.Lessons)
	if body == "" {
		return res, nil
	}
	if c := s.Config().SpaceClassification(); c != content.Unclassified {
		return nil, fmt.Errorf("capture %s: the space is %s; captured lessons enter only an UNCLASSIFIED space", name, c)
	}
	title := opts.Title
	if title == "" {
		title = "Lessons from " + path.Base(filepath.ToSlash(name))
	}
	r, err := Ingest(ctx, s, Source{Title: title, Kind: SourceChat, Body: []byte(body), Author: opts.Author, When: opts.When, Propose: true})
	if err != nil {
		return nil, err
	}
	res.Result = r
	return res, nil
}

// lessonsBody is the proposed source: the kept lessons, one item each.
func lessonsBody(ls []Lesson) string {
	var b strings.Builder
	for _, l := range ls {
		if l.Kept {
			b.WriteString("- " + strings.Join(strings.Fields(l.Text), " ") + "\n")
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "Lessons captured from an agent session.\n\n" + b.String()
}

// findLessons returns the markers and lesson lines of a text.
func findLessons(text string) []Lesson {
	var out []Lesson
	for _, m := range rememberRe().FindAllStringSubmatch(text, -1) {
		out = append(out, Lesson{Text: strings.TrimSpace(m[1]), Marker: "remember"})
	}
	for _, m := range lessonRe().FindAllStringSubmatch(text, -1) {
		t := strings.TrimSpace(strings.Trim(strings.TrimSpace(m[1]), "*_"))
		if t != "" {
			out = append(out, Lesson{Text: t, Marker: "lesson"})
		}
	}
	return out
}

// lineText is text found at a line of the transcript.
type lineText struct {
	line int
	text string
}

// transcriptText returns the text of a transcript: for JSONL (its first
// non-blank byte is "{"), the strings of every message, line by line, where
// every line must be one JSON value; else the text as it is.
func transcriptText(data []byte) ([]lineText, string, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return nil, "", fmt.Errorf("%w: empty", errBadTranscript)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, "", fmt.Errorf("%w: binary data, not a transcript", errBadTranscript)
	}
	if trimmed[0] != '{' {
		return []lineText{{line: 1, text: string(data)}}, "text", nil
	}
	var out []lineText
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), MaxTranscriptBytes)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, "", fmt.Errorf("%w: line %d is not JSON (a JSONL transcript holds one JSON object a line)", errBadTranscript, n)
		}
		var b strings.Builder
		messageText(v, "", &b)
		if b.Len() > 0 {
			out = append(out, lineText{line: n, text: b.String()})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("%w: %v", errBadTranscript, err)
	}
	return out, "jsonl", nil
}

// messageText collects the strings a Claude Code or Codex record holds as
// message text: the values of text, content and message keys, at any depth
// (Claude Code: message.content[].text; Codex: payload.content[].text or
// payload.message). Tool inputs and outputs under other keys are skipped.
func messageText(v any, key string, b *strings.Builder) {
	switch x := v.(type) {
	case string:
		switch key {
		case "text", "content", "message":
			b.WriteString(x)
			b.WriteString("\n")
		}
	case []any:
		for _, e := range x {
			messageText(e, key, b)
		}
	case map[string]any:
		if t, _ := x["type"].(string); t == "tool_use" || t == "tool_result" || t == "function_call" || t == "function_call_output" {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			messageText(x[k], k, b)
		}
	}
}
