/*
 * layer_main.c - the program each layer's library is linked into alone
 * (tests/meson.build): the whole library with only the layers below it, so
 * a call to a higher layer is an undefined reference and fails the build.
 */
int main(void)
{
	return 0;
}
