package control

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/holon-actors/holon-actors/actors"
)

// ArchiveContentType is the media type of an agent archive.
const ArchiveContentType = "application/gzip"

// deleteAgent serves DELETE /control/agents/{id}[?force=true].
func (s *Server) deleteAgent(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	force := r.URL.Query().Get("force") == "true"
	if _, ok := s.existing(w, r.Context(), id); !ok {
		return
	}
	res, err := s.cfg.Runtime.Delete(r.Context(), id, actors.DeleteOptions{Force: force})
	if err != nil {
		writeError(w, archiveError(err, id))
		return
	}
	s.cfg.Log.Info().Str("agent_id", id).Strs("deleted", res.Deleted).Str("archive", res.Archive).Msg("agent deleted")
	writeJSON(w, http.StatusOK, res)
}

// exportAgent serves GET /control/agents/{id}/export: the agent archive,
// streamed. A failure after the first byte aborts the response, so the
// client sees a cut archive, never a short one that looks whole.
func (s *Server) exportAgent(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	if err := s.cfg.Runtime.CheckExport(r.Context(), id); err != nil {
		writeError(w, archiveError(err, id))
		return
	}
	w.Header().Set("Content-Type", ArchiveContentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+".tar.gz"))
	if err := s.cfg.Runtime.Export(r.Context(), id, w); err != nil {
		s.cfg.Log.Error().Err(err).Str("agent_id", id).Msg("agent export failed")
		panic(http.ErrAbortHandler)
	}
}

// importAgent serves POST /control/agents/import: the body is an agent
// archive (at most actors.DefaultMaxArchiveBytes uncompressed).
func (s *Server) importAgent(w http.ResponseWriter, r *http.Request) {
	body := http.MaxBytesReader(w, r.Body, actors.DefaultMaxArchiveBytes)
	res, err := s.cfg.Runtime.Import(r.Context(), body, actors.DefaultMaxArchiveBytes)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(w, errorf(http.StatusRequestEntityTooLarge, KindTooLarge, "an archive this large is not imported",
			"the archive is larger than %d MiB", actors.DefaultMaxArchiveBytes>>20))
		return
	}
	if err != nil {
		writeError(w, archiveError(err, ""))
		return
	}
	s.cfg.Log.Info().Str("agent_id", res.AgentID).Strs("agents", res.Agents).Int("events", res.Events).Msg("agent imported")
	writeJSON(w, http.StatusCreated, res)
}

// archiveError maps an error of delete, export or import of agent id.
func archiveError(err error, id string) *Error {
	switch {
	case errors.Is(err, actors.ErrNoAgent):
		return errorf(http.StatusNotFound, KindNotFound, "list agents with holon-actors agents list", "no agent %q", id)
	case errors.Is(err, actors.ErrAgentBusy):
		return errorf(http.StatusConflict, KindConflict,
			fmt.Sprintf("wait for it, stop it first (holon-actors agents stop %s), or delete it anyway with --force", id), "%v", err)
	case errors.Is(err, actors.ErrNotDeletable):
		return errorf(http.StatusConflict, KindConflict, "see holon-actors agents list", "%v", err)
	case errors.Is(err, actors.ErrBadArchive):
		return errorf(http.StatusUnprocessableEntity, KindInvalid,
			"import a file written by holon-actors agents export (or from the trash of a delete), unchanged; nothing was imported", "%v", err)
	case errors.Is(err, actors.ErrAgentExists), errors.Is(err, actors.ErrAgentDeleted):
		return errorf(http.StatusConflict, KindConflict, "nothing was imported; see holon-actors agents list", "%v", err)
	}
	return runtimeError(err)
}
