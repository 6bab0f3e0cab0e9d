package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() { register(newVersionCmd) }

// versionInfo is the JSON of pt version.
type versionInfo struct {
	Version string `json:"version"`
	Go      string `json:"go"`
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print pt's version (the module version it was built as)",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := versionInfo{Version: buildVersion(), Go: runtime.Version()}
			return e.emit(v, func(w io.Writer) { fmt.Fprintf(w, "pt %s (%s)\n", v.Version, v.Go) })
		},
	}
}

// buildVersion is the version of the binary: the module version go install
// stamps (v1.2.0, or a pseudo-version), else "dev" with the commit that
// was built when the build recorded one.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	v := "dev-" + short(rev)
	if dirty {
		v += "-dirty"
	}
	return v
}
