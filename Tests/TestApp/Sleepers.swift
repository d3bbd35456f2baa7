// Outside main.swift: a closure formed in main.swift is main-actor code, and would trap when
// run on a thread of its own.
#if canImport(Glibc)
    import Glibc
#endif

/// Threads that sleep for ever with the default signal mask, named `app-sleeper` so a test can
/// send a signal to one of them: without a handler of Cellar's, it would end the process.
func startSleepingThreads() {
    for _ in 0..<4 {
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { _ in
                // The default mask of a thread in a process started normally: nothing blocked
                // (the test runner may have started this process with signals blocked).
                var none = sigset_t()
                sigemptyset(&none)
                pthread_sigmask(SIG_SETMASK, &none, nil)
                // pthread_setname_np is not visible to Swift here; the kernel takes the name from this file too.
                let name = open("/proc/thread-self/comm", O_WRONLY)
                if name >= 0 {
                    _ = write(name, "app-sleeper", 11)
                    close(name)
                }
                while true { sleep(3600) }
            }, nil)
    }
}
