# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'cg_ridge: iterations=20, lambda=0.1, tolerance=1e-06' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'kernel_ridge: lambda=0.1' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
$line0 << EOD
1000 0.10942665600000001 0.107839854 0.11081703700000001
4000 1.0149980140000001 1.010541108 1.015169874
16000 13.221012603 13.221012603 13.221012603
40000 81.08781733900001 81.08781733900001 81.08781733900001
100000 589.447644496 589.447644496 589.447644496
EOD
$line1 << EOD
1000 0.014509218 0.014168087000000001 0.027705083999999998
4000 0.47021446 0.470096468 0.47495523900000003
16000 19.376211705 19.375820275 19.376408787
40000 284.74756439600003 284.74756439600003 284.74756439600003
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'cg_ridge (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)'
