package node

import (
	"log/slog"

	"github.com/rs/zerolog"
)

// SlogOf routes slog records (protoactor's, Badger's) into zl. The
// message field is "msg" (see cmd/holon-actors' main), so protoactor's
// own "message" attribute does not collide with it.
func SlogOf(zl zerolog.Logger) *slog.Logger {
	return slog.New(zerolog.NewSlogHandler(zl.With().Str("source", "lib").Logger()))
}
