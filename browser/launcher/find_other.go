//go:build !linux && !darwin && !windows

package launcher

var platformLocations []string
