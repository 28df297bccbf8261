package main

import (
	"encoding/json"
	"runtime/debug"

	"github.com/holon-actors/holon-actors/persistence"
)

// version is the release version, set at link time with
// -ldflags "-X main.version=v0.1.0"; otherwise taken from the build info.
var version = ""

// versionCmd prints what was built and from where.
type versionCmd struct{}

// versionInfo is the output of `holon-actors version`.
type versionInfo struct {
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	Commit    string `json:"commit"`
	Modified  bool   `json:"modified"` // built from a tree with uncommitted changes
	Home      string `json:"home"`     // the resolved --home
}

// Run prints the version, the Go version, the commit and the home directory.
func (versionCmd) Run(e *env) error {
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return err
	}
	v := buildVersion()
	v.Home = home
	if e.JSON {
		return json.NewEncoder(e.stdout).Encode(v)
	}
	commit := v.Commit
	if v.Modified {
		commit += " (modified)"
	}
	return printTable(e.stdout, [][2]string{
		{"holon-actors", v.Version},
		{"go", v.GoVersion},
		{"commit", commit},
		{"home", v.Home},
	})
}

// buildVersion reads the version, Go version and VCS commit from the binary.
func buildVersion() versionInfo {
	v := versionInfo{Version: version, GoVersion: "unknown", Commit: "unknown"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.GoVersion = info.GoVersion
	if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}
