package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/mcp"
)

func init() { register(newMCPCmd) }

func newMCPCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "connect coding agents to the space over MCP"}
	var client, scope, command, name, project, url, tokenEnv string
	install := &cobra.Command{
		Use:   "install --client " + strings.Join(mcp.InstallClients, "|"),
		Short: "add pt to a coding agent's MCP configuration",
		Long: "install merges an entry for pt into the client's MCP configuration:\n" +
			"Claude Code .mcp.json (project) or ~/.claude.json (user); Cursor .cursor/mcp.json or ~/.cursor/mcp.json;\n" +
			"Gemini CLI .gemini/settings.json or ~/.gemini/settings.json; VS Code .vscode/mcp.json (project only);\n" +
			"Codex ~/.codex/config.toml (user, the default) or .codex/config.toml; Claude Desktop's own file (user only).\n" +
			"The project is the repository holding the space. A project entry runs `pt` from PATH with the space\n" +
			"named relative to the project, so a teammate's clone can use it as it is; a user entry names this\n" +
			"machine's pt and space. With --url the entry reaches a shared `pt serve --http` instead, with the\n" +
			"bearer token read from the environment variable --token-env names (never written to the file).\n" +
			"The rest of the file is kept; a second run changes nothing.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if client == "" {
				return usageError{fmt.Errorf("--client is required (%s)", strings.Join(mcp.InstallClients, ", "))}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			dir := s.Dir()
			s.Close()
			if dir == "" {
				return errors.New("the space is a bare repository: serve it from a checkout")
			}
			if project == "" {
				project = repoRoot(dir, s.Prefix())
			}
			home, _ := os.UserHomeDir()
			opts := mcp.InstallOptions{Client: client, Scope: scope, SpaceDir: dir, Command: command, Name: name, Home: home, Project: project,
				GOOS: runtime.GOOS, URL: url, TokenEnv: tokenEnv}
			if command == "" && url == "" && userScope(client, scope) {
				// A user entry is this machine's: it runs this pt.
				if opts.Command, err = os.Executable(); err != nil {
					return err
				}
			}
			res, err := mcp.Install(opts)
			if err != nil {
				if strings.HasPrefix(err.Error(), "unknown ") || strings.HasPrefix(err.Error(), "--") {
					return usageError{err}
				}
				return err
			}
			return e.emit(res, func(w io.Writer) {
				what := res.Command + " " + strings.Join(res.Args, " ")
				if res.URL != "" {
					what = res.URL + " (token from $" + res.TokenEnv + ")"
				}
				fmt.Fprintf(w, "%s: %s %q in %s (%s scope): %s\n", res.Client, res.Status, res.Name, res.Path, res.Scope, what)
			})
		},
	}
	install.Flags().StringVar(&client, "client", "", strings.Join(mcp.InstallClients, ", ")+" (required)")
	install.Flags().StringVar(&scope, "scope", "", "project or user (default project; user for codex and claude-desktop)")
	install.Flags().StringVar(&command, "command", "", "the pt executable the client runs (default: pt from PATH for project scope, this one for user scope)")
	install.Flags().StringVar(&name, "name", "pt", "the server's name in the client's configuration")
	install.Flags().StringVar(&project, "project", "", "the project directory (default: the root of the repository holding the space)")
	install.Flags().StringVar(&url, "url", "", "reach a shared pt serve --http at this URL instead of starting pt")
	install.Flags().StringVar(&tokenEnv, "token-env", mcp.DefaultTokenEnv, "with --url: the environment variable holding the bearer token")
	cmd.AddCommand(install)
	needsSubcommand(cmd)
	return cmd
}

// repoRoot is the work tree root of a space at dir whose path in the
// repository is prefix ("" or "kb/").
func repoRoot(dir, prefix string) string {
	root := dir
	for range strings.Count(strings.TrimSuffix(prefix, "/"), "/") + boolInt(prefix != "") {
		root = filepath.Dir(root)
	}
	return root
}

// userScope reports whether an install writes a user entry.
func userScope(client, scope string) bool {
	return scope == mcp.ScopeUser || scope == "" && (client == "codex" || client == "claude-desktop")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
