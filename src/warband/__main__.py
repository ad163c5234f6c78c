from warband.cli.main import run

run()
