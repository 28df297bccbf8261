package pgjournal

import "errors"

// ErrSchemaTooNew is returned by Open when the database was migrated by a
// newer build: this one does not know its tables and changes nothing.
var ErrSchemaTooNew = errors.New("pgjournal: database schema is newer than this build")
