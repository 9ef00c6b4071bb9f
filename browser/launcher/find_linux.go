package launcher

var platformLocations = []string{"/usr/bin/chromium", "/usr/lib/chromium/chromium", "/snap/bin/chromium", "/opt/google/chrome/chrome"}
