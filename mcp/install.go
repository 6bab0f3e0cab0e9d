package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Clients that Install knows, and where each keeps its MCP servers.
var installClients = map[string]struct {
	project, user string // config file, relative to the project and the home directory
	toml          bool
}{
	"claude": {project: ".mcp.json", user: ".claude.json"},
	"cursor": {project: ".cursor/mcp.json", user: ".cursor/mcp.json"},
	"gemini": {project: ".gemini/settings.json", user: ".gemini/settings.json"},
	"codex":  {user: ".codex/config.toml", toml: true},
}

// InstallClients lists the clients Install knows, for flag help.
var InstallClients = []string{"claude", "codex", "cursor", "gemini"}

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

// InstallOptions says which client to configure and what to run.
type InstallOptions struct {
	Client   string // claude, codex, cursor or gemini
	Scope    string // project or user; "" is project, and user for codex (which has no project file)
	SpaceDir string // the space to serve; made absolute
	Command  string // the pt executable the client runs
	Name     string // the server's name in the client's config; "" is "pt"
	Home     string // the user's home directory (user scope)
	Project  string // the project's directory (project scope)
}

// InstallResult says what Install did.
type InstallResult struct {
	Client  string   `json:"client"`
	Scope   string   `json:"scope"`
	Path    string   `json:"path"`
	Name    string   `json:"name"`
	Status  string   `json:"status"` // added, updated or unchanged
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// Install merges an entry that runs `pt serve --kb <space>` into a coding
// agent's MCP configuration, keeping everything else in the file as it was.
// It writes atomically (a temporary file renamed over the old one) and only
// when the entry changes, so running it twice reports unchanged.
func Install(opts InstallOptions) (*InstallResult, error) {
	c, ok := installClients[opts.Client]
	if !ok {
		return nil, fmt.Errorf("unknown client %q (one of %s)", opts.Client, strings.Join(InstallClients, ", "))
	}
	if opts.Scope == "" {
		opts.Scope = ScopeProject
		if c.project == "" {
			opts.Scope = ScopeUser
		}
	}
	if opts.Name == "" {
		opts.Name = "pt"
	}
	if opts.Command == "" || opts.SpaceDir == "" {
		return nil, errors.New("install: the pt command and the space directory are required")
	}
	space, err := filepath.Abs(opts.SpaceDir)
	if err != nil {
		return nil, err
	}
	var path string
	switch opts.Scope {
	case ScopeProject:
		if c.project == "" {
			return nil, fmt.Errorf("%s reads MCP servers only from ~/%s: use --scope user", opts.Client, c.user)
		}
		if opts.Project == "" {
			return nil, errors.New("install: no project directory")
		}
		path = filepath.Join(opts.Project, c.project)
	case ScopeUser:
		if opts.Home == "" {
			return nil, errors.New("install: no home directory")
		}
		path = filepath.Join(opts.Home, c.user)
	default:
		return nil, fmt.Errorf("unknown scope %q (project or user)", opts.Scope)
	}
	res := &InstallResult{Client: opts.Client, Scope: opts.Scope, Path: path, Name: opts.Name,
		Command: opts.Command, Args: []string{"serve", "--kb", space}}

	old, err := os.ReadFile(path)
	mode := os.FileMode(0o644)
	switch {
	case errors.Is(err, os.ErrNotExist):
		old = nil
	case err != nil:
		return nil, err
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	var next []byte
	if c.toml {
		next, res.Status, err = mergeTOML(old, opts.Name, res.Command, res.Args)
	} else {
		entry := map[string]any{"command": res.Command, "args": res.Args}
		if opts.Client == "claude" {
			entry["type"] = "stdio"
		}
		next, res.Status, err = mergeJSON(old, opts.Name, entry)
	}
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", path, err)
	}
	if res.Status == InstallUnchanged || bytes.Equal(old, next) {
		res.Status = InstallUnchanged
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := writeAtomic(path, next, mode); err != nil {
		return nil, fmt.Errorf("install %s: %w", path, err)
	}
	return res, nil
}

// sameArgs compares a decoded args array with ours.
func sameArgs(v any, args []string) bool {
	list, ok := v.([]any)
	if !ok || len(list) != len(args) {
		return false
	}
	return slices.EqualFunc(list, args, func(a any, b string) bool { s, ok := a.(string); return ok && s == b })
}
