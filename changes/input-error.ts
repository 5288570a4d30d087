/** Bad input (an argument, a file, a ref, an acknowledgements entry): the CLIs print its message and exit 2. */
export class InputError extends Error {
  override name = "InputError";
}
