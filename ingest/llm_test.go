package ingest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// chatServer is an OpenAI-compatible endpoint on loopback whose reply is
// reply(request); it counts requests and checks their shape.
func chatServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "wrong endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 || !strings.Contains(req.Messages[1].Content, "[1] ") {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if r.Header.Get("Authorization") != "Bearer k-test" || req.Model != "tiny" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func completion(text string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": text}}}})
	}
}

const modelText = `<think>The runbook says replays are safe; the decision says keys live 24h.</think>
Replaying the write queue is safe because every write keeps its idempotency key, so
the ledger skips writes it already applied [1]. Keys are only stored for a day, so a
replay started later needs a manual check of each write against the ledger [3].

DURABILITY: durable`

// TestFileBackModel: a sane model answers; a model that is down, slow, or
// answers garbage is replaced by the extractive answer, and the consult
// goes on.
func TestFileBackModel(t *testing.T) {
	const q = "how do I replay the ledger write queue"
	tests := []struct {
		name    string
		reply   func(w http.ResponseWriter, r *http.Request)
		by      string
		modelEr string
	}{
		{"good answer", completion(modelText), ingest.AnswerByModel, ""},
		{"garbage body", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>gateway</html>")) }, ingest.AnswerByExtraction, "not a chat completion"},
		{"empty content", completion("<think>hmm</think>\n\n"), ingest.AnswerByExtraction, "empty answer"},
		{"no choices", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"choices":[]}`)) }, ingest.AnswerByExtraction, "no choices"},
		{"unfinished think", completion("<think>The runbook says"), ingest.AnswerByExtraction, "unfinished reasoning"},
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			completion(modelText)(w, r)
		}, ingest.AnswerByExtraction, "no answer within 200ms"},
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }, ingest.AnswerByExtraction, "500 Internal Server Error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := chatServer(t, tc.reply)
			s, _ := fbSpace(t, "")
			m := &ingest.Model{URL: srv.URL, Name: "tiny", Key: "k-test", Timeout: 200 * time.Millisecond}
			start := time.Now()
			person := wiki.Author{Kind: content.AuthorHuman, Name: "dana"}
			v, err := ingest.FileBack(context.Background(), s, ingest.Consult{Question: q, Model: m, When: fbConsult, Author: person})
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("consult took %s", d)
			}
			if n.Load() != 1 {
				t.Errorf("model asked %d times", n.Load())
			}
			if v.AnswerBy != tc.by || !strings.Contains(v.ModelError, tc.modelEr) || (tc.modelEr == "") != (v.ModelError == "") {
				t.Fatalf("answer by %q, model error %q; want %q, %q", v.AnswerBy, v.ModelError, tc.by, tc.modelEr)
			}
			if v.Verdict == ingest.VerdictFiled {
				// Text pt or a model composed is an agent's, though a
				// person ran the consult: they are who asked.
				want := content.Author{Kind: content.AuthorAgent, Name: "pt"}
				if tc.by == ingest.AnswerByModel {
					want.Name = "tiny"
				}
				pa, err := s.ReadPage(context.Background(), wiki.Rev(v.Commit), v.Page)
				if err != nil {
					t.Fatal(err)
				}
				if m := pa.Page.Meta; m.Author != want || m.Provenance.AskedBy != "dana" {
					t.Errorf("page author %+v asked by %q; want %+v asked by dana", m.Author, m.Provenance.AskedBy, want)
				}
			}
			if tc.by == ingest.AnswerByModel {
				if strings.Contains(v.Answer, "think") || strings.Contains(v.Answer, "DURABILITY") || !strings.HasPrefix(v.Answer, "Replaying the write queue is safe") {
					t.Errorf("model answer not cleaned:\n%s", v.Answer)
				}
				if v.Verdict != ingest.VerdictFiled {
					t.Errorf("model answer %s at %q: %s", v.Verdict, v.Gate, v.Reason)
				}
				return
			}
			if !strings.Contains(v.Answer, "(From ") {
				t.Errorf("fallback answer is not extractive:\n%s", v.Answer)
			}
			if v.Verdict != ingest.VerdictSkipped || v.Gate != ingest.GateEcho {
				t.Errorf("extractive fallback %s at %q: %s", v.Verdict, v.Gate, v.Reason)
			}
		})
	}
}

// TestModelDurability: the model's verdict is combined with the rules like a
// caller's, so a model can only make an answer shorter-lived.
func TestModelDurability(t *testing.T) {
	hits := []retrieve.Hit{{Path: "pages/a.md", Title: "A", Excerpt: "alpha"}, {Path: "pages/b.md", Title: "B", Excerpt: "beta"}}
	for _, tc := range []struct {
		text  string
		want  string
		cited []string
	}{
		{"The team agreed on weekly releases [2].\n\nDURABILITY: ephemeral", "ephemeral", []string{"pages/b.md"}},
		{"The team agreed on weekly releases.\n**Durability:** time-bound", "time-bound", []string{"pages/a.md", "pages/b.md"}},
		{"The team agreed on weekly releases [1][2][9].", "", []string{"pages/a.md", "pages/b.md"}},
	} {
		srv, _ := chatServer(t, completion(tc.text))
		m := &ingest.Model{URL: srv.URL + "/v1/chat/completions", Name: "tiny", Key: "k-test"}
		ma, err := m.Compose(context.Background(), "how do releases work", hits)
		if err != nil {
			t.Fatal(err)
		}
		var cited []string
		for _, h := range ma.Cited {
			cited = append(cited, h.Path)
		}
		if ma.Durability != tc.want || strings.Join(cited, ",") != strings.Join(tc.cited, ",") || strings.Contains(strings.ToLower(ma.Answer), "durability") {
			t.Errorf("%q: durability %q cited %v answer %q", tc.text, ma.Durability, cited, ma.Answer)
		}
	}

	// An ephemeral verdict from the model stops the consult at the
	// durability gate.
	srv, _ := chatServer(t, completion("Dana is replaying the queue right now and expects to finish soon [1].\nDURABILITY: ephemeral"))
	s, _ := fbSpace(t, "")
	v, err := ingest.FileBack(context.Background(), s, ingest.Consult{Question: "how do I replay the ledger write queue", Model: &ingest.Model{URL: srv.URL, Name: "tiny", Key: "k-test"}, When: fbConsult})
	if err != nil {
		t.Fatal(err)
	}
	if v.AnswerBy != ingest.AnswerByModel || v.Gate != ingest.GateDurability || !strings.Contains(v.Reason, "the model said so") {
		t.Errorf("%s %s %q %q", v.AnswerBy, v.Verdict, v.Gate, v.Reason)
	}
}

func TestModelEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":                           "http://127.0.0.1:8080/v1/chat/completions",
		"http://127.0.0.1:8080/":                          "http://127.0.0.1:8080/v1/chat/completions",
		"http://127.0.0.1:8080/v1":                        "http://127.0.0.1:8080/v1/chat/completions",
		"https://h/openai/deployments/x/chat/completions": "https://h/openai/deployments/x/chat/completions",
	} {
		if got := (&ingest.Model{URL: in}).Endpoint(); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if ingest.ModelFromEnv(getenv) != nil {
		t.Error("a model without PT_LLM_URL")
	}
	env["PT_LLM_URL"], env["PT_LLM_TIMEOUT"] = "http://127.0.0.1:1", "3s"
	if m := ingest.ModelFromEnv(getenv); m == nil || m.Timeout != 3*time.Second {
		t.Errorf("from env: %+v", m)
	}
	// A model that cannot be reached says so.
	_, err := (&ingest.Model{URL: "http://127.0.0.1:1", Timeout: time.Second}).Compose(context.Background(), "q", []retrieve.Hit{{Path: "a.md", Excerpt: "x"}})
	if err == nil || !strings.HasPrefix(err.Error(), "model: ") {
		t.Errorf("unreachable model: %v", err)
	}
}
