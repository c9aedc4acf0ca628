# Sourced by the comparison scripts. jit_ticks PID: CPU ticks (user + system, /proc) of the
# process's JIT compiler threads, to wait until the JIT is quiet before measuring.
jit_ticks() {
  local t sum=0
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      C1\ Compiler*|C2\ Compiler*) sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))) ;;
    esac
  done
  echo "$sum"
}
