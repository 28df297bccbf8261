//go:build !linux

package secrets

// Undumpable is a no-op off Linux: there the process's memory is
// protected only as the platform protects it from its own user.
func Undumpable() error { return nil }
