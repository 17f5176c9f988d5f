#!/bin/sh
# ampvk filter under mpirun: 2 ranks share a folder of 6 small PNGs (gray, gray+alpha,
# RGB, RGBA; 8 and 16 bits). Every output equals the single-process one, every rank
# exits 0, and rank 0 alone prints the summary. With `fail`, a corrupt file joins
# the inputs: every rank exits 1 and rank 0 alone names the file and the reason.
#   sh mpi.sh AMPVK SOURCE_DIR WORK_DIR MPIEXEC [fail]
set -eu
ampvk=$1 src=$2 work=$3 mpiexec=$4 mode=${5:-ok}
. "$src/tests/tool/common.sh"
fresh
mkdir "$work/in"
for f in rgb8 rgba8 gray8 ga8 rgb16 rgba16; do cp "$src/tests/data/$f.png" "$work/in/"; done
good="ga8.png gray8.png rgb16.png rgb8.png rgba16.png rgba8.png "
status=0 files=6 failed=0
if [ "$mode" = fail ]; then
    head -c 100 "$src/assets/sample.png" >"$work/in/corrupt.png"
    status=1 files=7 failed=1
fi

# the single-process outputs
expect "$status" "$ampvk" filter --quiet "$work/in" "$work/ref" gaussian:sigma=1

# 2 ranks on this machine, as root in CI, without the network: shared memory between
# the ranks, no ssh for the launch, no binding (more ranks than cores is fine). A
# shell around each rank writes its exit status to status.RANK. In the sanitizer
# build the ranks do not look for leaks: Open MPI leaves allocations of components it
# has unloaded by then, which no suppression can name (the single-process runs look).
mpi="--allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca pml ob1 --mca btl self,vader"
mpi="$mpi --mca btl_vader_single_copy_mechanism none"
rank='"$1" filter "$2" "$3" gaussian:sigma=1; echo $? >"$4/status.$OMPI_COMM_WORLD_RANK"'
expect 0 env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    "$mpiexec" $mpi -np 2 sh -c "$rank" sh "$ampvk" "$work/in" "$work/result" "$work"

for r in 0 1; do
    [ "$(cat "$work/status.$r")" = "$status" ] || fail "rank $r exited $(cat "$work/status.$r"), expected $status"
done
[ "$(grep -c " images in " "$work/out")" = 1 ] || fail "the summary is not printed once"
has "$work/out" "^$files images in .*, $failed failed$"
[ "$(ls -A "$work/result" | sort | tr '\n' ' ')" = "$good" ] || fail "OUT holds: $(ls -A "$work/result")"
for f in $good; do
    "$ampvk" diff "$work/ref/$f" "$work/result/$f" >/dev/null || fail "$f differs from the single-process output"
done
if [ "$mode" = fail ]; then
    [ "$(grep -c "corrupt.png" "$work/err")" = 1 ] || fail "corrupt.png is not named once on stderr"
    has "$work/err" "^corrupt.png: .*truncated"
    [ "$(grep -c "1 file failed" "$work/err")" = 1 ] || fail "the failures are not reported once"
fi
echo PASS
