/**
 * Makes state that lives as long as the page, not as long as the component that first asked for
 * it. A derived value belongs to the effect it was made in and freezes once that effect is
 * destroyed (Svelte warns `derived_inert` and returns the last value), so page-wide state must be
 * made in an effect root of its own. Where roots do not run, as in server-side tests, it is made
 * directly.
 */
export function pageLifetime<T>(make: () => T): T {
  let made: { readonly value: T } | undefined;
  $effect.root(() => {
    made = { value: make() };
  });
  return made ? made.value : make();
}
