// The browser path must not need Node's Buffer: delete it before the package is loaded.
delete globalThis.Buffer;

test('works with globalThis.Buffer removed', async () => {
  expect(globalThis.Buffer).toBeUndefined();
  const { init, murmur3 } = await import('../../js/main/index.js');
  await init();
  expect(murmur3.x86_32('abc', 0)).toBe(0xb3dd93fa);
  expect(murmur3.x64_128(new Uint8Array([1, 2, 3])).length).toBe(16);
});
