// Preloaded into each Prism child (`node --require`). Prism runs on plain node, so this guard is
// plain JavaScript too. The parent holds the write end of the child's stdin; however the parent
// ends, even by SIGKILL (tsx force-kills a busy script it relays a signal to), stdin then reaches
// its end and Prism exits instead of keeping its port.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
