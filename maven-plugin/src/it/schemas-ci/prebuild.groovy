// The live node (started by the plugin module's build in embedded mode) takes a few seconds to be ready.
def deadline = System.currentTimeMillis() + 180_000
while (true) {
    try {
        def c = new URL(quireUrl + '/health/ready').openConnection()
        c.connectTimeout = 2000
        c.readTimeout = 2000
        if (c.responseCode == 200) {
            return true
        }
    } catch (IOException ignored) {
        // not listening yet
    }
    if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException('the node at ' + quireUrl + ' was not ready within 180 s')
    }
    Thread.sleep(500)
}
