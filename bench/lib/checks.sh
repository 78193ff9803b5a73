# bench/lib/checks.sh — follow checks to ask about (sourced by bench/ scripts).
#
#   sample_checks SEED_DIR FILE   one line "user author" per seeded user: the user against a random heavy author (an
#                                 edge: heavy authors are followed by every other user) or a random light author (most
#                                 often not followed), half and half, with a fixed seed; prints nothing
sample_checks() {
  local seed_dir=$1 file=$2
  local heavy light
  mapfile -t heavy <"$seed_dir/heavy.txt"
  mapfile -t light <"$seed_dir/light.txt"
  awk -v seed=7 -v nh="${#heavy[@]}" -v nl="${#light[@]}" -v h="${heavy[*]}" -v l="${light[*]}" '
    BEGIN { srand(seed); split(h, H, " "); split(l, L, " ") }
    { print $1, (rand() < 0.5 ? H[int(rand() * nh) + 1] : L[int(rand() * nl) + 1]) }' "$seed_dir/users.tsv" >"$file"
}
