package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// installClient is where one coding agent keeps its MCP servers and how it
// spells an entry.
type installClient struct {
	project string                   // config file relative to the project; "" when the client has none
	user    func(goos string) string // config file relative to the home directory; nil when the client has none
	servers string                   // the JSON object holding the servers ("mcpServers", or VS Code's "servers")
	toml    bool                     // Codex's config.toml
	// stdioType and httpType are the "type" the entry carries ("" none);
	// urlKey names the URL (Gemini's httpUrl); envRef spells a reference
	// to an environment variable in a header (%s is its name).
	stdioType, httpType, urlKey, envRef string
	noHTTP                              bool   // the config file cannot name a remote server
	workspaceVar                        string // how a project-scope stdio entry names the project's folder ("" when the client starts the server there)
}

func homeFile(p string) func(string) string { return func(string) string { return p } }

// installClients are the clients Install knows.
func installClients(name string) (installClient, bool) {
	switch name {
	case "claude":
		return installClient{project: ".mcp.json", user: homeFile(".claude.json"), servers: "mcpServers", stdioType: "stdio", httpType: "http", urlKey: "url", envRef: "${%s}"}, true
	case "claude-desktop":
		return installClient{user: claudeDesktopFile, servers: "mcpServers", noHTTP: true}, true
	case "cursor":
		return installClient{project: ".cursor/mcp.json", user: homeFile(".cursor/mcp.json"), servers: "mcpServers", urlKey: "url", envRef: "${env:%s}", workspaceVar: "${workspaceFolder}"}, true
	case "gemini":
		return installClient{project: ".gemini/settings.json", user: homeFile(".gemini/settings.json"), servers: "mcpServers", urlKey: "httpUrl", envRef: "${%s}"}, true
	case "vscode":
		return installClient{project: ".vscode/mcp.json", servers: "servers", stdioType: "stdio", httpType: "http", urlKey: "url", envRef: "${env:%s}", workspaceVar: "${workspaceFolder}"}, true
	case "codex":
		return installClient{project: ".codex/config.toml", user: homeFile(".codex/config.toml"), toml: true}, true
	}
	return installClient{}, false
}

// claudeDesktopFile is where Claude Desktop keeps its configuration.
func claudeDesktopFile(goos string) string {
	switch goos {
	case "darwin":
		return "Library/Application Support/Claude/claude_desktop_config.json"
	case "windows":
		return "AppData/Roaming/Claude/claude_desktop_config.json"
	}
	return ".config/Claude/claude_desktop_config.json"
}

// InstallClients lists the clients Install knows, for flag help.
var InstallClients = []string{"claude", "claude-desktop", "codex", "cursor", "gemini", "vscode"}

// Install scopes.
const (
	ScopeProject = "project"
	ScopeUser    = "user"
)

// Install statuses.
const (
	InstallAdded     = "added"
	InstallUpdated   = "updated"
	InstallUnchanged = "unchanged"
)

// DefaultTokenEnv is the environment variable a remote entry reads its
// bearer token from.
const DefaultTokenEnv = "PT_TOKEN"

// InstallOptions says which client to configure and what to run.
type InstallOptions struct {
	Client string // one of InstallClients
	// Scope is project or user; "" is project, and user for the clients
	// that read their servers from the home directory first (Codex,
	// Claude Desktop).
	Scope string
	// SpaceDir is the space to serve. A project entry names it relative to
	// Project (nothing when it is Project itself: pt finds it from the
	// working directory); a user entry names it absolutely.
	SpaceDir string
	// Command is the pt the client runs: "pt" from PATH for a project
	// entry, which a teammate uses after a clone; required for a user one.
	Command string
	Name    string // the server's name in the client's config; "" is "pt"
	Home    string // the user's home directory (user scope)
	Project string // the project's directory (project scope)
	GOOS    string // the system whose home layout to use (Claude Desktop); "" is Linux's
	// URL, when set, makes the entry reach a shared `pt serve --http`
	// instead of starting pt; its bearer token is read from the
	// environment variable TokenEnv ("" is DefaultTokenEnv), which the
	// entry names: the token itself is never written.
	URL      string
	TokenEnv string
}

// InstallResult says what Install did.
type InstallResult struct {
	Client  string   `json:"client"`
	Scope   string   `json:"scope"`
	Path    string   `json:"path"`
	Name    string   `json:"name"`
	Status  string   `json:"status"` // added, updated or unchanged
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	URL     string   `json:"url,omitempty"`
	// TokenEnv is the environment variable a remote entry takes its token from.
	TokenEnv string `json:"token_env,omitempty"`
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Install merges an entry for pt into a coding agent's MCP configuration,
// keeping everything else in the file as it was: one that runs `pt serve`,
// or with opts.URL one that reaches a shared server. A project entry holds
// no path of this machine, so a teammate's clone can use it as it is. It
// writes atomically (a temporary file renamed over the old one) and only
// when the entry changes, so running it twice reports unchanged.
func Install(opts InstallOptions) (*InstallResult, error) {
	c, ok := installClients(opts.Client)
	if !ok {
		return nil, fmt.Errorf("unknown client %q (one of %s)", opts.Client, strings.Join(InstallClients, ", "))
	}
	if opts.Scope == "" {
		opts.Scope = ScopeProject
		if opts.Client == "codex" || c.project == "" {
			opts.Scope = ScopeUser
		}
	}
	if opts.Name == "" {
		opts.Name = "pt"
	}
	path, err := installPath(c, opts)
	if err != nil {
		return nil, err
	}
	res := &InstallResult{Client: opts.Client, Scope: opts.Scope, Path: path, Name: opts.Name}
	entry, err := installEntry(c, opts, res)
	if err != nil {
		return nil, err
	}
	return res, writeEntry(c, path, opts.Name, entry, res)
}

// installPath is the config file Install edits.
func installPath(c installClient, opts InstallOptions) (string, error) {
	switch opts.Scope {
	case ScopeProject:
		if c.project == "" {
			return "", fmt.Errorf("%s reads MCP servers only from ~/%s: use --scope user", opts.Client, c.user(opts.GOOS))
		}
		if opts.Project == "" {
			return "", errors.New("install: no project directory")
		}
		return filepath.Join(opts.Project, filepath.FromSlash(c.project)), nil
	case ScopeUser:
		if c.user == nil {
			return "", fmt.Errorf("%s keeps user MCP servers in its own profile: use --scope project (%s)", opts.Client, c.project)
		}
		if opts.Home == "" {
			return "", errors.New("install: no home directory")
		}
		return filepath.Join(opts.Home, filepath.FromSlash(c.user(opts.GOOS))), nil
	}
	return "", fmt.Errorf("unknown scope %q (project or user)", opts.Scope)
}

// installEntry builds the entry, as ordered key-value pairs, and fills in
// what it runs or reaches in res.
func installEntry(c installClient, opts InstallOptions, res *InstallResult) ([]member, error) {
	if opts.URL != "" {
		return remoteEntry(c, opts, res)
	}
	if opts.SpaceDir == "" {
		return nil, errors.New("install: the space directory is required")
	}
	space, err := filepath.Abs(opts.SpaceDir)
	if err != nil {
		return nil, err
	}
	res.Command, res.Args = opts.Command, []string{"serve", "--kb", space}
	if opts.Scope == ScopeProject {
		rel, err := projectRel(opts.Project, space)
		if err != nil {
			return nil, err
		}
		if res.Command == "" {
			res.Command = "pt"
		}
		switch {
		case c.workspaceVar != "" && rel == ".":
			res.Args = []string{"serve", "--kb", c.workspaceVar}
		case c.workspaceVar != "":
			res.Args = []string{"serve", "--kb", c.workspaceVar + "/" + rel}
		case rel == ".":
			res.Args = []string{"serve"}
		default:
			res.Args = []string{"serve", "--kb", rel}
		}
	}
	if res.Command == "" {
		return nil, errors.New("install: the pt command is required")
	}
	var e []member
	if c.stdioType != "" {
		e = append(e, jsonMember("type", c.stdioType))
	}
	return append(e, jsonMember("command", res.Command), jsonMember("args", res.Args)), nil
}

// projectRel is the space's folder relative to the project, with slashes;
// a space outside the project cannot be named portably.
func projectRel(project, space string) (string, error) {
	proj, err := filepath.Abs(project)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(realPath(proj), realPath(space))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the space %s is outside the project %s: a project entry names it relative to the project; use --scope user", space, proj)
	}
	return filepath.ToSlash(rel), nil
}

// realPath resolves symbolic links where it can (a temporary directory
// reached through one), so that two names of one folder compare equal.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// remoteEntry is an entry that reaches a shared pt serve --http.
func remoteEntry(c installClient, opts InstallOptions, res *InstallResult) ([]member, error) {
	if c.noHTTP {
		return nil, fmt.Errorf("%s cannot name a remote server in its config file: add %s in its Connectors settings", opts.Client, opts.URL)
	}
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("--url %q: want http(s)://HOST[:PORT]%s, without credentials", opts.URL, DefaultPath)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = DefaultPath
	}
	env := opts.TokenEnv
	if env == "" {
		env = DefaultTokenEnv
	}
	if !envName().MatchString(env) {
		return nil, fmt.Errorf("--token-env %q is not an environment variable name", env)
	}
	res.URL, res.TokenEnv = u.String(), env
	if c.toml {
		return []member{jsonMember("url", res.URL), jsonMember("bearer_token_env_var", env)}, nil
	}
	var e []member
	if c.httpType != "" {
		e = append(e, jsonMember("type", c.httpType))
	}
	headers := encodeObject([]member{jsonMember("Authorization", "Bearer "+fmt.Sprintf(c.envRef, env))})
	return append(e, jsonMember(c.urlKey, res.URL), member{"headers", headers}), nil
}

func jsonMember(key string, v any) member {
	b, err := marshalNoEscape(v)
	if err != nil {
		panic(err) // strings and string slices always encode
	}
	return member{key, b}
}

// writeEntry merges entry into the config file at path and writes it when
// it changed, keeping the file's mode.
func writeEntry(c installClient, path, name string, entry []member, res *InstallResult) error {
	old, err := os.ReadFile(path)
	mode := os.FileMode(0o644)
	switch {
	case errors.Is(err, os.ErrNotExist):
		old = nil
	case err != nil:
		return err
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	var next []byte
	if c.toml {
		next, res.Status, err = mergeTOML(old, name, entry)
	} else {
		next, res.Status, err = mergeJSON(old, c.servers, name, encodeObject(entry))
	}
	if err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	if res.Status == InstallUnchanged || bytes.Equal(old, next) {
		res.Status = InstallUnchanged
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := writeAtomic(path, next, mode); err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	return nil
}

// sameArgs compares a decoded args array with ours.
func sameArgs(v any, args []string) bool {
	list, ok := v.([]any)
	if !ok || len(list) != len(args) {
		return false
	}
	return slices.EqualFunc(list, args, func(a any, b string) bool { s, ok := a.(string); return ok && s == b })
}
