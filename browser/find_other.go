//go:build !linux && !darwin && !windows

package browser

var platformLocations []string
