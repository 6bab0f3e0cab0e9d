package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func TestInstallJSONClients(t *testing.T) {
	for _, tt := range []struct {
		client, scope, file, servers string
		user                         bool
		args                         []string // the entry's args; "" stands for the space's absolute path
	}{
		{"claude", "", ".mcp.json", "mcpServers", false, []string{"serve", "--kb", "kb"}},
		{"claude", "user", ".claude.json", "mcpServers", true, []string{"serve", "--kb", ""}},
		{"cursor", "project", ".cursor/mcp.json", "mcpServers", false, []string{"serve", "--kb", "${workspaceFolder}/kb"}},
		{"cursor", "user", ".cursor/mcp.json", "mcpServers", true, []string{"serve", "--kb", ""}},
		{"gemini", "project", ".gemini/settings.json", "mcpServers", false, []string{"serve", "--kb", "kb"}},
		{"gemini", "user", ".gemini/settings.json", "mcpServers", true, []string{"serve", "--kb", ""}},
		{"vscode", "", ".vscode/mcp.json", "servers", false, []string{"serve", "--kb", "${workspaceFolder}/kb"}},
		{"claude-desktop", "", ".config/Claude/claude_desktop_config.json", "mcpServers", true, []string{"serve", "--kb", ""}},
	} {
		t.Run(tt.client+"-"+tt.scope, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			space := filepath.Join(proj, "kb")
			path := filepath.Join(proj, tt.file)
			command := "pt" // a project entry runs pt from PATH
			if tt.user {
				path, command = filepath.Join(home, tt.file), "/usr/local/bin/pt"
			}
			// An existing file with other settings and another server, in an
			// order that must survive.
			orig := `{"zeta": 1, "` + tt.servers + `": {"other": {"command": "x", "args": []}}, "alpha": {"nested": [1, 2.50, "a<b"]}}`
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
				t.Fatal(err)
			}
			opts := InstallOptions{Client: tt.client, Scope: tt.scope, SpaceDir: space, Home: home, Project: proj}
			if tt.user {
				opts.Command = command
			}
			res, err := Install(opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != InstallAdded || res.Path != path {
				t.Errorf("first run: %+v", res)
			}
			data, _ := os.ReadFile(path)
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			servers, _ := doc[tt.servers].(map[string]any)
			pt, _ := servers["pt"].(map[string]any)
			want := slices.Clone(tt.args)
			for i, a := range want {
				if a == "" {
					want[i] = space
				}
			}
			if pt["command"] != command || !sameArgs(pt["args"], want) {
				t.Errorf("entry: %v, want %s %v", pt, command, want)
			}
			if !tt.user && strings.Contains(string(data), proj) {
				t.Errorf("a project entry names this machine's path %s:\n%s", proj, data)
			}
			if (tt.client == "claude" || tt.client == "vscode") && pt["type"] != "stdio" {
				t.Errorf("%s entry lacks type stdio: %v", tt.client, pt)
			}
			other, _ := servers["other"].(map[string]any)
			if doc["zeta"] != 1.0 || other["command"] != "x" || !strings.Contains(string(data), `2.50`) || !strings.Contains(string(data), `"a<b"`) {
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
			opts.SpaceDir = filepath.Join(proj, "other")
			if res, err := Install(opts); err != nil || res.Status != InstallUpdated {
				t.Errorf("update: %+v %v", res, err)
			}
		})
	}
}

// A remote entry names the URL and the environment variable that holds
// the token, in each client's own spelling, and never a token.
func TestInstallRemote(t *testing.T) {
	for _, tt := range []struct {
		client, file, want string
	}{
		{"claude", ".mcp.json", `{"type":"http","url":"https://kb.example.com/mcp","headers":{"Authorization":"Bearer ${TEAM_KB}"}}`},
		{"cursor", ".cursor/mcp.json", `{"url":"https://kb.example.com/mcp","headers":{"Authorization":"Bearer ${env:TEAM_KB}"}}`},
		{"gemini", ".gemini/settings.json", `{"httpUrl":"https://kb.example.com/mcp","headers":{"Authorization":"Bearer ${TEAM_KB}"}}`},
		{"vscode", ".vscode/mcp.json", `{"type":"http","url":"https://kb.example.com/mcp","headers":{"Authorization":"Bearer ${env:TEAM_KB}"}}`},
	} {
		proj := t.TempDir()
		opts := InstallOptions{Client: tt.client, Project: proj, URL: "https://kb.example.com", TokenEnv: "TEAM_KB"}
		res, err := Install(opts)
		if err != nil || res.URL != "https://kb.example.com/mcp" || res.TokenEnv != "TEAM_KB" {
			t.Fatalf("%s: %+v %v", tt.client, res, err)
		}
		data, _ := os.ReadFile(filepath.Join(proj, tt.file))
		var doc map[string]map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		for _, servers := range doc {
			json.Compact(&got, servers["pt"])
		}
		if got.String() != tt.want {
			t.Errorf("%s entry:\n%s\nwant\n%s", tt.client, got.String(), tt.want)
		}
	}
	home := t.TempDir()
	res, err := Install(InstallOptions{Client: "codex", Home: home, URL: "http://127.0.0.1:7323/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(res.Path)
	if want := "[mcp_servers.pt]\nurl = \"http://127.0.0.1:7323/mcp\"\nbearer_token_env_var = \"PT_TOKEN\"\n"; string(data) != want {
		t.Errorf("codex:\n%s\nwant\n%s", data, want)
	}
	for _, bad := range []InstallOptions{
		{Client: "claude", Project: home, URL: "ftp://x"},
		{Client: "claude", Project: home, URL: "https://dana:secret@kb.example.com"},
		{Client: "claude", Project: home, URL: "https://kb.example.com", TokenEnv: "PT TOKEN"},
		{Client: "claude-desktop", Home: home, URL: "https://kb.example.com"},
	} {
		if _, err := Install(bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".mcp.json")); err == nil {
		t.Error("a refused install wrote a file")
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
	// Codex reads a trusted project's .codex/config.toml too.
	res, err = Install(InstallOptions{Client: "codex", Scope: "project", SpaceDir: filepath.Join(home, "kb"), Home: home, Project: home})
	if err != nil || res.Command != "pt" || !slices.Equal(res.Args, []string{"serve", "--kb", "kb"}) {
		t.Errorf("codex project scope: %+v %v", res, err)
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
		_, err := Install(InstallOptions{Client: c, Scope: scope, SpaceDir: filepath.Join(home, "kb"), Command: "pt", Home: home, Project: home})
		if err == nil || !strings.Contains(err.Error(), "fix or move") {
			t.Errorf("%s: %v", c, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".mcp.json")); string(b) != "{not json" {
		t.Errorf("broken file was rewritten")
	}
	if _, err := Install(InstallOptions{Client: "vscode", Scope: "user", SpaceDir: "/kb", Command: "pt", Home: home, Project: home}); err == nil {
		t.Errorf("vscode user scope: want an error")
	}
	if _, err := Install(InstallOptions{Client: "claude", SpaceDir: "/elsewhere/kb", Home: home, Project: home}); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("a space outside the project: %v", err)
	}
	if _, err := Install(InstallOptions{Client: "zed", SpaceDir: "/kb", Command: "pt", Home: home, Project: home}); err == nil {
		t.Errorf("unknown client: want an error")
	}
}
