package control

import (
	_ "embed"
	"net/http"
)

// openAPIDoc is the checked-in OpenAPI document, generated from the route
// table by package apidoc; TestOpenAPIInSync keeps it equal to
// apidoc.Build(Routes()).
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIDoc)
}
