//! The Fetch API's `fetch(url)` with no `method` among its options is a GET, its default: a
//! site's own `/api/v4/runners?search=` read with `fetch` is no registration (`POST /runners`),
//! while the same path posted with `method: 'POST'` is. Fixtures written for this test,
//! modelled on a web app's search component and a runner-provisioning script.

mod common;

#[test]
fn fetch_without_a_method_is_a_get() {
    let files = [
        (
            "app/components/search.vue",
            "<script>\nexport default {\n  methods: {\n    async find(q) {\n      const games = await fetch(`/api/v4/games?search=${q}`).then(r => r.json())\n      const runners = await fetch(`/api/v4/runners?search=${q}`).then(r => r.json())\n      return [games, runners]\n    },\n  },\n}\n</script>\n",
        ),
        (
            "scripts/register.js",
            "const base = 'https://gitlab.example.com/api/v4';\nexport async function register(token) {\n  await fetch(`${base}/runners`, { method: 'POST', body: JSON.stringify({ token }) });\n  return fetch(`${base}/runners`, { headers: { 'PRIVATE-TOKEN': token } });\n}\n",
        ),
    ];
    let found = common::scan_files(&files);
    common::assert_silent(&found, "app/components/search.vue");
    assert_eq!(
        common::lines_of(
            &found,
            "scripts/register.js",
            "runners-api-registration-token"
        ),
        [3],
        "{found:?}"
    );
}
