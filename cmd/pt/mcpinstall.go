package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/mcp"
)

func init() { register(newMCPCmd) }

func newMCPCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "connect coding agents to the space over MCP"}
	var client, scope, command, name, project string
	install := &cobra.Command{
		Use:   "install --client claude|codex|cursor|gemini",
		Short: "add pt serve to a coding agent's MCP configuration",
		Long: "install merges an entry that runs `pt serve --kb <space>` into the client's MCP configuration:\n" +
			"Claude Code .mcp.json (project) or ~/.claude.json (user); Cursor .cursor/mcp.json or ~/.cursor/mcp.json;\n" +
			"Gemini CLI .gemini/settings.json or ~/.gemini/settings.json; Codex ~/.codex/config.toml.\n" +
			"The project is the repository holding the space. The rest of the file is kept; a second run changes nothing.",
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
			if command == "" {
				if command, err = os.Executable(); err != nil {
					return err
				}
			}
			if project == "" {
				project = repoRoot(dir, s.Prefix())
			}
			home, _ := os.UserHomeDir()
			res, err := mcp.Install(mcp.InstallOptions{Client: client, Scope: scope, SpaceDir: dir, Command: command, Name: name, Home: home, Project: project})
			if err != nil {
				if strings.HasPrefix(err.Error(), "unknown ") {
					return usageError{err}
				}
				return err
			}
			return e.emit(res, func(w io.Writer) {
				fmt.Fprintf(w, "%s: %s %q in %s (%s scope): %s %s\n", res.Client, res.Status, res.Name, res.Path, res.Scope, res.Command, strings.Join(res.Args, " "))
			})
		},
	}
	install.Flags().StringVar(&client, "client", "", "claude, codex, cursor or gemini (required)")
	install.Flags().StringVar(&scope, "scope", "", "project or user (default project; user for codex)")
	install.Flags().StringVar(&command, "command", "", "the pt executable the client runs (default: this one)")
	install.Flags().StringVar(&name, "name", "pt", "the server's name in the client's configuration")
	install.Flags().StringVar(&project, "project", "", "the project directory (default: the root of the repository holding the space)")
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
