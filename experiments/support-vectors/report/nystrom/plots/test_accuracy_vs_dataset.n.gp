# kexp plot; run `gnuplot test_accuracy_vs_dataset.n.gp` here to redraw test_accuracy_vs_dataset.n.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_dataset.n.svg'
set title 'test accuracy against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the highest test_accuracy over kernel.m.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '10000' 10000, '40000' 40000, '100000' 100000)
set logscale x
$line0 << EOD
1000 0.98 0.98 0.98
4000 0.981 0.981 0.981
10000 0.98 0.98 0.98
40000 0.9778 0.9778 0.9778
100000 0.97596 0.97596 0.97596
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'nystrom(gaussian) · linear_svc (primal)'
