package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/secrets"
)

// Log file rotation: the daemon log is capped, with a few old files kept.
const (
	logMaxMB    = 10
	logBackups  = 3
	logFileName = "daemon.log"
)

// runtimeLogger builds the logger of `run`: human console output on a
// TTY, JSON lines otherwise, and also JSON lines into $HOLON_HOME/logs/
// daemon.log (rotated at 10 MiB, 3 kept) when toFile is set. Every line
// is scrubbed of reg's secrets as it is written. The returned closer
// flushes and closes the file.
func runtimeLogger(stderr io.Writer, home string, toFile bool, level zerolog.Level, reg *secrets.Registry) (zerolog.Logger, io.Closer, error) {
	console := reg.Writer(stderr)
	if f, ok := stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		console = zerolog.ConsoleWriter{Out: reg.Writer(stderr), TimeFormat: "15:04:05.000"}
	}
	closer := io.Closer(nopCloser{})
	w := console
	if toFile {
		dir := persistence.LogsDir(home)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return zerolog.Logger{}, nil, err
		}
		lj := &lumberjack.Logger{Filename: filepath.Join(dir, logFileName), MaxSize: logMaxMB, MaxBackups: logBackups}
		w, closer = zerolog.MultiLevelWriter(console, reg.Writer(lj)), lj
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger(), closer, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
