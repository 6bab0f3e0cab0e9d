package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "4d7bb54a1b2c3d4e5f60718293a4b5c6d7e8f901"}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"released", debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"pseudo", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129180000-4d7bb54a1b2c"}}, "v0.0.0-20261129180000-4d7bb54a1b2c"},
		{"devel with vcs", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{rev}}, "dev-4d7bb54a1b2c"},
		{"devel dirty", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "true"}}}, "dev-4d7bb54a1b2c-dirty"},
		{"nothing known", debug.BuildInfo{}, "dev"},
	} {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
