package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func TestInstallJSONClients(t *testing.T) {
	for _, tt := range []struct {
		client, scope, file string
		user                bool
	}{
		{"claude", "", ".mcp.json", false},
		{"claude", "user", ".claude.json", true},
		{"cursor", "project", ".cursor/mcp.json", false},
		{"cursor", "user", ".cursor/mcp.json", true},
		{"gemini", "project", ".gemini/settings.json", false},
		{"gemini", "user", ".gemini/settings.json", true},
	} {
		t.Run(tt.client+"-"+tt.scope, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			path := filepath.Join(proj, tt.file)
			if tt.user {
				path = filepath.Join(home, tt.file)
			}
			// An existing file with other settings and another server, in an
			// order that must survive.
			orig := `{"zeta": 1, "mcpServers": {"other": {"command": "x", "args": []}}, "alpha": {"nested": [1, 2.50, "a<b"]}}`
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
				t.Fatal(err)
			}
			opts := InstallOptions{Client: tt.client, Scope: tt.scope, SpaceDir: "/srv/kb", Command: "/usr/local/bin/pt", Home: home, Project: proj}
			res, err := Install(opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != InstallAdded || res.Path != path {
				t.Errorf("first run: %+v", res)
			}
			data, _ := os.ReadFile(path)
			var doc struct {
				Zeta       int                       `json:"zeta"`
				Alpha      map[string]any            `json:"alpha"`
				MCPServers map[string]map[string]any `json:"mcpServers"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			pt := doc.MCPServers["pt"]
			if pt["command"] != "/usr/local/bin/pt" || !sameArgs(pt["args"], []string{"serve", "--kb", "/srv/kb"}) {
				t.Errorf("entry: %v", pt)
			}
			if tt.client == "claude" && pt["type"] != "stdio" {
				t.Errorf("claude entry lacks type stdio: %v", pt)
			}
			if doc.Zeta != 1 || doc.MCPServers["other"]["command"] != "x" || !strings.Contains(string(data), `2.50`) || !strings.Contains(string(data), `"a<b"`) {
				t.Errorf("the rest of the file changed:\n%s", data)
			}
			if z, a := strings.Index(string(data), "zeta"), strings.Index(string(data), "alpha"); z > a {
				t.Errorf("key order changed:\n%s", data)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
			}
			// Idempotent: a second run changes nothing.
			res, err = Install(opts)
			if err != nil || res.Status != InstallUnchanged {
				t.Errorf("second run: %+v %v", res, err)
			}
			if again, _ := os.ReadFile(path); string(again) != string(data) {
				t.Errorf("second run rewrote the file")
			}
			// Another space updates the entry in place.
			opts.SpaceDir = "/srv/other"
			if res, err := Install(opts); err != nil || res.Status != InstallUpdated {
				t.Errorf("update: %+v %v", res, err)
			}
		})
	}
}

func TestInstallCodexTOML(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".codex/config.toml")
	orig := `# my codex settings
model = "o3" # inline comment

[mcp_servers.other]
command = "other"
args = ["a"]

[mcp_servers.pt]
command = "/old/pt"
args = [
  "serve",
  "--kb", "/old",
]
startup_timeout_sec = 20

[mcp_servers.pt.env]
PT_AUTHOR = "codex"

[profiles.fast]
model = "o4-mini"
`
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(orig), 0o644)
	opts := InstallOptions{Client: "codex", SpaceDir: "/srv/kb", Command: "/usr/local/bin/pt", Home: home}
	res, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != InstallUpdated || res.Scope != ScopeUser {
		t.Errorf("%+v", res)
	}
	data, _ := os.ReadFile(path)
	want := strings.Replace(orig, "command = \"/old/pt\"\nargs = [\n  \"serve\",\n  \"--kb\", \"/old\",\n]\n",
		"command = \"/usr/local/bin/pt\"\nargs = [\"serve\", \"--kb\", \"/srv/kb\"]\n", 1)
	if d := cmp.Diff(want, string(data)); d != "" {
		t.Errorf("config.toml (-want +got):\n%s", d)
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		t.Fatal(err)
	}
	if res, _ := Install(opts); res.Status != InstallUnchanged {
		t.Errorf("second run: %+v", res)
	}
	// A fresh file gets the table appended.
	os.Remove(path)
	if res, err := Install(opts); err != nil || res.Status != InstallAdded {
		t.Fatalf("%+v %v", res, err)
	}
	data, _ = os.ReadFile(path)
	if string(data) != "[mcp_servers.pt]\ncommand = \"/usr/local/bin/pt\"\nargs = [\"serve\", \"--kb\", \"/srv/kb\"]\n" {
		t.Errorf("fresh config:\n%s", data)
	}
	if _, err := Install(InstallOptions{Client: "codex", Scope: "project", SpaceDir: "/srv/kb", Command: "pt", Home: home, Project: home}); err == nil {
		t.Errorf("codex project scope: want an error")
	}
}

func TestInstallRefusesBrokenFiles(t *testing.T) {
	home := t.TempDir()
	for file, body := range map[string]string{".mcp.json": "{not json", ".codex/config.toml": "= broken"} {
		p := filepath.Join(home, file)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	for _, c := range []string{"claude", "codex"} {
		scope := "project"
		if c == "codex" {
			scope = "user"
		}
		_, err := Install(InstallOptions{Client: c, Scope: scope, SpaceDir: "/kb", Command: "pt", Home: home, Project: home})
		if err == nil || !strings.Contains(err.Error(), "fix or move") {
			t.Errorf("%s: %v", c, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".mcp.json")); string(b) != "{not json" {
		t.Errorf("broken file was rewritten")
	}
	if _, err := Install(InstallOptions{Client: "vscode", SpaceDir: "/kb", Command: "pt", Home: home, Project: home}); err == nil {
		t.Errorf("unknown client: want an error")
	}
}
