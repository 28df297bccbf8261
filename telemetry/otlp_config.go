package telemetry

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// otlpConfig is where and how the OTLP/HTTP exporter sends spans: the
// --otlp-endpoint flag and the standard OTEL_EXPORTER_OTLP_* variables
// (each TRACES_ one over its general one), read as the SDK's own HTTP
// exporter reads them.
type otlpConfig struct {
	url     string // the full URL requests are POSTed to
	headers map[string]string
	gzip    bool
	timeout time.Duration // of each request
	tls     *tls.Config   // nil: the default
}

const (
	envPrefix       = "OTEL_EXPORTER_OTLP_"
	envTracesPrefix = "OTEL_EXPORTER_OTLP_TRACES_"
	otlpTracesPath  = "/v1/traces"
	// defaultOTLPTimeout is the variables' default (10 s).
	defaultOTLPTimeout = 10 * time.Second
)

// signalEnv reads OTEL_EXPORTER_OTLP_TRACES_<k>, or, when that is unset,
// OTEL_EXPORTER_OTLP_<k>; name says which one was read.
func (c Config) signalEnv(k string) (v, name string) {
	if v := c.getenv(envTracesPrefix + k); v != "" {
		return v, envTracesPrefix + k
	}
	return c.getenv(envPrefix + k), envPrefix + k
}

// otlpProtocol is the protocol the variables ask for, "" when unset.
func (c Config) otlpProtocol() (protocol, name string) {
	v, name := c.signalEnv("PROTOCOL")
	return strings.TrimSpace(v), name
}

// otlpSettings resolves the exporter's settings; errors wrap ErrConfig
// and name the flag or variable that is wrong.
func (c Config) otlpSettings() (otlpConfig, error) {
	o := otlpConfig{headers: map[string]string{}, timeout: defaultOTLPTimeout}
	if err := c.otlpURL(&o); err != nil {
		return o, err
	}
	if v, name := c.signalEnv("HEADERS"); v != "" {
		h, err := parseOTLPHeaders(v)
		if err != nil {
			return o, fmt.Errorf("%w: %s: %w", ErrConfig, name, err)
		}
		o.headers = h
	}
	switch v, name := c.signalEnv("COMPRESSION"); strings.TrimSpace(v) {
	case "gzip":
		o.gzip = true
	case "", "none":
	default:
		return o, fmt.Errorf("%w: %s=%q: give gzip or none", ErrConfig, name, v)
	}
	if v, name := c.signalEnv("TIMEOUT"); v != "" {
		ms, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || ms <= 0 {
			return o, fmt.Errorf("%w: %s=%q: give the export timeout in milliseconds, e.g. 10000", ErrConfig, name, v)
		}
		o.timeout = time.Duration(ms) * time.Millisecond
	}
	tc, err := c.otlpTLS()
	if err != nil {
		return o, err
	}
	o.tls = tc
	return o, nil
}

// otlpURL sets o.url: the flag's URL (/v1/traces when its path is empty),
// else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else
// OTEL_EXPORTER_OTLP_ENDPOINT as a base /v1/traces is added to. The
// INSECURE variables, when set, choose http (true) or https (false) for
// a variable's endpoint, as the SDK's exporter does.
func (c Config) otlpURL(o *otlpConfig) error {
	if c.OTLPEndpoint != "" {
		u, _ := url.Parse(c.OTLPEndpoint) // Validate checked it
		if u.Path == "" || u.Path == "/" {
			u.Path = otlpTracesPath
		}
		o.url = u.String()
		return nil
	}
	name, raw := envTracesPrefix+"ENDPOINT", c.getenv(envTracesPrefix+"ENDPOINT")
	full := raw != ""
	if !full {
		name, raw = envPrefix+"ENDPOINT", c.getenv(envPrefix+"ENDPOINT")
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: %s=%q: give an http:// or https:// URL of an OTLP/HTTP receiver, e.g. http://127.0.0.1:4318", ErrConfig, name, raw)
	}
	switch {
	case !full:
		u.Path = path.Join("/", u.Path, otlpTracesPath)
	case u.Path == "":
		u.Path = "/"
	}
	if v, iname := c.signalEnv("INSECURE"); v != "" {
		insecure, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%w: %s=%q: give true or false", ErrConfig, iname, v)
		}
		u.Scheme = "https"
		if insecure {
			u.Scheme = "http"
		}
	}
	o.url = u.String()
	return nil
}

// otlpTLS reads the CERTIFICATE (the receiver's CA, PEM) and
// CLIENT_CERTIFICATE / CLIENT_KEY variables; nil when none is set.
func (c Config) otlpTLS() (*tls.Config, error) {
	ca, caName := c.signalEnv("CERTIFICATE")
	cert, certName := c.signalEnv("CLIENT_CERTIFICATE")
	key, keyName := c.signalEnv("CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: read the receiver's CA certificate: %w", ErrConfig, caName, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%w: %s=%q holds no PEM certificate: give the receiver's CA certificate in PEM", ErrConfig, caName, ca)
		}
		tc.RootCAs = pool
	}
	if (cert == "") != (key == "") {
		return nil, fmt.Errorf("%w: %s and %s go together: give both (PEM files) or neither", ErrConfig, certName, keyName)
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("%w: %s / %s: %w", ErrConfig, certName, keyName, err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}

// parseOTLPHeaders reads the HEADERS variables' key=value,key=value list;
// values are percent-decoded.
func parseOTLPHeaders(v string) (map[string]string, error) {
	h := map[string]string{}
	for pair := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, val, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || !validHeaderName(k) {
			return nil, fmt.Errorf("%q is not a header: give key=value pairs separated by commas, e.g. api-key=secret", pair)
		}
		dec, err := url.PathUnescape(val)
		if err != nil {
			return nil, fmt.Errorf("header %s: its value is not percent-encoded right: %w", k, err)
		}
		h[k] = strings.TrimSpace(dec)
	}
	return h, nil
}

// validHeaderName reports whether k is an HTTP token.
func validHeaderName(k string) bool {
	return strings.IndexFunc(k, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) < 0 && http.CanonicalHeaderKey(k) != ""
}
